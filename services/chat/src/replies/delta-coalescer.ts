import type { ReplyEvent } from '@app/contracts/chat';
import type { Emit } from './reply-context';

/** The longest a text or reasoning delta waits to be sent with the ones that follow it: one animation frame. */
export const MAX_DELTA_FRAME_MS = 16;

/** Replies whose deltas are being coalesced in this process right now (the load). */
let open = 0;

/**
 * The frame for the load: one reply alone sends every delta at once; as more replies stream at once,
 * the deltas wait longer to be joined (one ms per 8 replies), up to one animation frame (16 ms from
 * 128 replies on), so that the load makes fewer, larger events.
 */
export function adaptiveFrameMs(): number {
  return open <= 1 ? 0 : Math.min(MAX_DELTA_FRAME_MS, open / 8);
}

type DeltaEvent = Extract<ReplyEvent, { event: 'text' | 'reasoning' }>;

/** What a frame sends: the coalescers holding deltas when it ends. */
type Holder = { flush(): void };

/**
 * One frame for every reply of the process: the deltas held by any reply are sent together when it
 * ends, in one timer callback, so that what they publish leaves in one tick (one socket write to
 * NATS for all of them, one immediate on the in-process bus) instead of one write per reply per
 * delta. The frame starts with the first delta held and lasts the frame length of that moment, so
 * no delta waits longer than one frame.
 */
export class SharedFrame {
  private holders = new Set<Holder>();
  private timer: NodeJS.Timeout | null = null;

  /** `holder` is flushed when the current frame ends (one starts now, `frameMs` long, if none is running). */
  hold(holder: Holder, frameMs: number): void {
    this.holders.add(holder);
    this.timer ??= setTimeout(this.end, frameMs);
  }

  /** `holder` sent what it held before the frame's end (another event came, or its reply ended). */
  release(holder: Holder): void {
    this.holders.delete(holder);
  }

  private readonly end = () => {
    this.timer = null;
    const holders = this.holders;
    this.holders = new Set();
    for (const holder of holders) holder.flush();
  };
}

/** The process's frame, shared by every reply's coalescer. */
const processFrame = new SharedFrame();

/**
 * Sends a model's text and reasoning deltas as fewer, larger events. One reply alone sends each
 * delta at once. As soon as another reply streams beside it, a delta waits for the end of the
 * process's current frame (`SharedFrame`, as long as `adaptiveFrameMs` says: 0.1 ms for two replies,
 * 16 ms from 128), with the deltas of the same reply that follow it joined to it, and every reply's
 * deltas leave together: under load a reply makes at most one event per frame (one bus frame, one
 * SSE write), and the process one write to the bus per frame for all of them. Any other event first
 * sends what is held, so the order is kept; `flush` sends it at the end, `close` once the reply's
 * stream is over.
 */
export class DeltaCoalescer implements Holder {
  private held: DeltaEvent | null = null;
  private closed = false;
  private readonly frameMs: () => number;

  constructor(
    private readonly emit: Emit,
    frameMs: number | (() => number) = adaptiveFrameMs,
    private readonly frame: SharedFrame = processFrame,
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
    const frameMs = this.frameMs();
    if (frameMs <= 0) {
      this.emit(event);
      return;
    }
    // A copy: what is joined to it must not change the caller's event.
    this.held = { event: event.event, data: { delta: event.data.delta } } as DeltaEvent;
    this.frame.hold(this, frameMs);
  }

  /** Sends what is held now (at the frame's end, before another event, and at the end of the reply). */
  flush(): void {
    const held = this.held;
    if (!held) return;
    this.held = null;
    this.frame.release(this);
    this.emit(held);
  }
}
