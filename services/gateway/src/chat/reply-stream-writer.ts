import type { ReplyEvent } from '@app/contracts/chat';

/** Where the event stream's text goes (the HTTP response). */
export interface SseSink {
  /** False when the sink is full (the reader is slower than the reply): the writer waits for `onDrain`. */
  write(chunk: string): boolean | void;
  end(): void;
  /** Calls `resume` once the sink takes writes again (or is gone: what is written then is dropped). */
  onDrain?(resume: () => void): void;
  /** Gives up on a reader that fell too far behind (closes the connection). */
  abandon?(): void;
}

/** What a reader that cannot keep up may leave waiting in the gateway, at most, before it is cut off. */
export const MAX_HELD_BYTES = 4 * 1024 * 1024;

/** An event held while the reader catches up: a text or reasoning delta (joined with the next ones), or a frame. */
type Held = { delta: 'text' | 'reasoning'; text: string } | { frame: string };

/** A delta's frame from prefixes built once: the text is the only thing serialised. */
const DELTA_PREFIX = { text: 'event: text\ndata: {"delta":', reasoning: 'event: reasoning\ndata: {"delta":' } as const;
const deltaFrame = (kind: 'text' | 'reasoning', delta: string): string => `${DELTA_PREFIX[kind]}${JSON.stringify(delta)}}\n\n`;
const frameOf = (event: ReplyEvent): string =>
  event.event === 'text' || event.event === 'reasoning'
    ? deltaFrame(event.event, event.data.delta)
    : `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;

/**
 * `streaming`: events flow. `failed`: an `error` was sent, only `done` may follow. `ended`: `done`
 * was sent and the response ended; nothing more is written.
 */
export type ReplyStreamState = 'streaming' | 'failed' | 'ended';

/**
 * Writes a reply stream's events, as a state machine, so that every stream has exactly one end: a
 * `done`, after at most one `error`. Whatever comes after the end (a late failure of the upstream
 * call, a second `done`) is dropped, and so is anything but `done` after an `error`.
 *
 *   streaming --error--> failed --done--> ended
 *   streaming --done---------------------> ended
 *   fail(detail): error (unless failed) + done --> ended
 *
 * Backpressure: once the sink says it is full, nothing more is written until it drains; meanwhile
 * the events are held, consecutive text (and reasoning) deltas joined into one, and all of them are
 * written in one write when it drains (or at the end). The upstream is still read (the reply is
 * stored whoever listens), so what is held is about the reply's own size; a reader so slow that
 * more than `maxHeldBytes` wait is cut off rather than buffered without bound.
 */
export class ReplyStreamWriter {
  private current: ReplyStreamState = 'streaming';
  private droppedEvents = 0;
  private blocked = false;
  private held: Held[] = [];
  private heldBytes = 0;
  private cutOff = false;

  constructor(
    private readonly sink: SseSink,
    private readonly maxHeldBytes = MAX_HELD_BYTES,
  ) {}

  /** Bytes (about) waiting for a slow reader. */
  get waitingBytes(): number {
    return this.heldBytes;
  }

  /** The reader fell more than `maxHeldBytes` behind and was cut off. */
  get abandoned(): boolean {
    return this.cutOff;
  }

  get state(): ReplyStreamState {
    return this.current;
  }

  get ended(): boolean {
    return this.current === 'ended';
  }

  /** Events that arrived too late to be sent (after the end, or after an error). */
  get dropped(): number {
    return this.droppedEvents;
  }

  /** An event of the reply, as the service sent it. Returns whether it was written. */
  send(event: ReplyEvent): boolean {
    if (this.current === 'ended') return this.drop();
    if (event.event === 'done') {
      this.end();
      return true;
    }
    if (this.current === 'failed') return this.drop();
    this.emit(event);
    if (event.event === 'error') this.current = 'failed';
    return true;
  }

  /** The stream failed (the call failed, the producer died, the server is stopping): `error` unless one was sent, then `done`. */
  fail(detail: string): boolean {
    if (this.current === 'ended') return this.drop();
    if (this.current === 'streaming') this.emit({ event: 'error', data: { detail } });
    this.end();
    return true;
  }

  /** The upstream ended: `done`, unless it was sent already. */
  finish(): void {
    if (this.current !== 'ended') this.end();
  }

  /** A comment line that keeps proxies from closing a quiet connection. */
  keepAlive(): void {
    if (this.current !== 'ended' && !this.blocked) this.write(': keep-alive\n\n');
  }

  private emit(event: ReplyEvent): void {
    if (!this.blocked) return this.write(frameOf(event));
    const last = this.held.at(-1);
    if ((event.event === 'text' || event.event === 'reasoning') && last && 'delta' in last && last.delta === event.event) {
      last.text += event.data.delta;
      this.heldBytes += event.data.delta.length;
    } else if (event.event === 'text' || event.event === 'reasoning') {
      this.held.push({ delta: event.event, text: event.data.delta });
      this.heldBytes += event.data.delta.length + 32;
    } else {
      const frame = frameOf(event);
      this.held.push({ frame });
      this.heldBytes += frame.length;
    }
    if (this.heldBytes > this.maxHeldBytes) this.abandon();
  }

  private write(chunk: string): void {
    if (this.sink.write(chunk) === false && this.sink.onDrain) {
      this.blocked = true;
      this.sink.onDrain(() => this.resume());
    }
  }

  /** The sink drained: everything held goes in one write. */
  private resume(): void {
    if (!this.blocked) return;
    this.blocked = false;
    const chunk = this.takeHeld();
    if (chunk && this.current !== 'ended') this.write(chunk);
  }

  private takeHeld(): string {
    const chunk = this.held.map((h) => ('frame' in h ? h.frame : deltaFrame(h.delta, h.text))).join('');
    this.held = [];
    this.heldBytes = 0;
    return chunk;
  }

  private abandon(): void {
    this.cutOff = true;
    this.held = [];
    this.heldBytes = 0;
    this.current = 'ended';
    if (this.sink.abandon) this.sink.abandon();
    else this.sink.end();
  }

  private end(): void {
    // What waits goes with the done, in one write: the sink takes it whatever its fill (it ends there).
    this.sink.write(this.takeHeld() + frameOf({ event: 'done', data: {} }));
    this.current = 'ended';
    this.sink.end();
  }

  private drop(): false {
    this.droppedEvents++;
    return false;
  }
}
