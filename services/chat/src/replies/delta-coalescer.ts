import type { ReplyEvent } from '@app/contracts/chat';
import type { Emit } from './reply-context';

/** The longest a text or reasoning delta waits to be sent with the ones that follow it: one animation frame. */
export const MAX_DELTA_FRAME_MS = 16;

/** Replies whose deltas are being coalesced in this process right now (the load). */
let open = 0;

/**
 * The frame for the load: one reply alone sends every delta at once; as more replies stream at once,
 * the deltas that come close together wait longer to be joined (one ms per 8 replies), up to one
 * animation frame (16 ms from 128 replies on), so that the load makes fewer, larger events.
 */
export function adaptiveFrameMs(): number {
  return open <= 1 ? 0 : Math.min(MAX_DELTA_FRAME_MS, open / 8);
}

type DeltaEvent = Extract<ReplyEvent, { event: 'text' | 'reasoning' }>;

/**
 * Sends a model's text and reasoning deltas as fewer, larger events: a delta that comes after a
 * quiet spell (a frame since the last one sent) goes at once, and the deltas that follow it closely
 * are joined and sent a frame after it, as one event (one bus frame, one SSE write). The frame
 * grows with the load (`adaptiveFrameMs`). A model that writes a token every 25 ms is relayed token
 * by token with no wait; one that writes 500 a second under load makes 60 to 120 events a
 * second, not 500. Any other event first sends what is held, so the order is kept; `flush` sends it at the
 * end, `close` once the reply's stream is over.
 */
export class DeltaCoalescer {
  private held: DeltaEvent | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastSentAt = -Infinity;

  private closed = false;
  private readonly frameMs: () => number;

  constructor(
    private readonly emit: Emit,
    frameMs: number | (() => number) = adaptiveFrameMs,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.frameMs = typeof frameMs === 'number' ? () => frameMs : frameMs;
    open++;
  }

  /** Sends what is held; the reply no longer counts in the load. */
  close(): void {
    this.flush();
    if (!this.closed) open--;
    this.closed = true;
  }

  send(event: ReplyEvent): void {
    if (event.event !== 'text' && event.event !== 'reasoning') {
      this.flush();
      this.emit(event);
      return;
    }
    if (this.held && this.held.event !== event.event) this.flush();
    if (this.held) {
      this.held.data.delta += event.data.delta;
      return;
    }
    const since = this.now() - this.lastSentAt;
    const frameMs = this.frameMs();
    if (since >= frameMs) {
      this.sendNow(event);
      return;
    }
    // A copy: what is joined to it must not change the caller's event.
    this.held = { event: event.event, data: { delta: event.data.delta } } as DeltaEvent;
    this.timer = setTimeout(this.flushHeld, frameMs - since);
  }

  private readonly flushHeld = () => this.flush();

  /** Sends what is held now (before another event, and at the end of the reply). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const held = this.held;
    this.held = null;
    if (held) this.sendNow(held);
  }

  private sendNow(event: DeltaEvent): void {
    this.lastSentAt = this.now();
    this.emit(event);
  }
}
