import type { ReplyEvent } from '@app/contracts/chat';
import type { Emit } from './reply-context';

/** The longest a text or reasoning delta waits to be sent with the ones that follow it. */
export const DELTA_FRAME_MS = 5;

type DeltaEvent = Extract<ReplyEvent, { event: 'text' | 'reasoning' }>;

/**
 * Sends a model's text and reasoning deltas as fewer, larger events: a delta that comes after a
 * quiet spell (`frameMs` since the last one sent) goes at once, and the deltas that follow it closely
 * are joined and sent `frameMs` after it, as one event (one bus frame, one SSE write). A model that
 * writes a token every 25 ms is relayed token by token with no wait; one that writes 500 a second
 * makes about 200 events a second, not 500. Any other event first sends what is held, so the order
 * is kept; `flush` sends it at the end.
 */
export class DeltaCoalescer {
  private held: DeltaEvent | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastSentAt = -Infinity;

  constructor(
    private readonly emit: Emit,
    private readonly frameMs = DELTA_FRAME_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  send(event: ReplyEvent): void {
    if (event.event !== 'text' && event.event !== 'reasoning') {
      this.flush();
      this.emit(event);
      return;
    }
    if (this.held && this.held.event !== event.event) this.flush();
    if (this.held) {
      this.held = { event: event.event, data: { delta: this.held.data.delta + event.data.delta } } as DeltaEvent;
      return;
    }
    const since = this.now() - this.lastSentAt;
    if (since >= this.frameMs) {
      this.sendNow(event);
      return;
    }
    this.held = event;
    this.timer = setTimeout(() => this.flush(), this.frameMs - since);
  }

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
