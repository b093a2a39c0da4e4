import type { Headers } from './bus';
import { BUS_HEADERS } from './codec';

export interface StreamFrame {
  data: Uint8Array;
  /** The producer's last frame (its body says how the stream ended). */
  end: boolean;
}

/** Time for the watchdog: the real one, or a fake one in tests. */
export interface Clock {
  now(): number;
  every(ms: number, tick: () => void): { cancel(): void };
}

export const systemClock: Clock = {
  now: () => performance.now(),
  every: (ms, tick) => {
    const timer = setInterval(tick, ms);
    return { cancel: () => clearInterval(timer) };
  },
};

/** Why a stream was given up on: no frame in time, no sign of life at all, or a frame lost on the way. */
export type StreamFailureCause = 'idle' | 'silent' | 'gap';

export interface StreamInboxOptions {
  /** Longest wait for the next frame, heartbeats or not (a live producer with nothing to say). */
  idleTimeoutMs: number;
  /** The error a stream fails with, by cause (`silentMs`: how long nothing came, for `silent`). */
  failure(cause: StreamFailureCause, silentMs: number): Error;
  clock?: Clock;
}

/**
 * The consumer's side of a streamed answer: puts the numbered frames back in order and watches
 * the producer. Once the producer has promised a heartbeat every `heartbeatMs`, `misses` intervals
 * without any sign of it (a frame or a heartbeat) mean it is gone (crashed, killed, cut off from
 * the bus), and the stream fails within seconds instead of waiting for the idle timeout. A
 * heartbeat also says how many frames were sent before it; one of them missing means a frame was
 * lost on the way (a reconnect), and the stream fails too. Frames that arrived before a failure are
 * still handed out, in order, before the failure is.
 */
export class StreamInbox {
  private readonly clock: Clock;
  private readonly frames = new Map<number, StreamFrame>();
  private next = 0;
  private failure?: Error;
  private wake?: () => void;
  private waitingSince?: number;
  private lastFrameAt: number;
  private lastSignAt: number;
  private silentLimitMs?: number;
  private ticker: { cancel(): void };
  private lastCheckAt: number;
  /** The last check found this process had been stalled and left its judgement to the next one. */
  private deferred = false;

  constructor(private readonly options: StreamInboxOptions) {
    this.clock = options.clock ?? systemClock;
    this.lastFrameAt = this.lastSignAt = this.lastCheckAt = this.clock.now();
    this.ticker = this.clock.every(this.tickMs(), () => this.check());
  }

  /** Starts the liveness watch: the producer sends a heartbeat every `heartbeatMs`. */
  watch(heartbeatMs: number, misses: number): void {
    this.silentLimitMs = heartbeatMs * misses;
    this.lastSignAt = this.clock.now();
    this.ticker.cancel();
    this.ticker = this.clock.every(this.tickMs(), () => this.check());
  }

  /** A message on the stream's inbox: a numbered frame or a heartbeat. */
  receive(headers: Headers, data: Uint8Array): void {
    if (this.failure) return;
    const now = this.clock.now();
    const seq = Number(headers[BUS_HEADERS.streamSeq]);
    if (!Number.isInteger(seq) || seq < 0) return;
    this.lastSignAt = now;
    if (headers[BUS_HEADERS.streamHeartbeat]) {
      // One producer, delivered in order: every frame sent before this heartbeat is here by now.
      for (let missing = this.next; missing < seq; missing++) {
        if (!this.frames.has(missing)) return this.fail(this.options.failure('gap', 0));
      }
      return;
    }
    if (seq < this.next) return; // a duplicate
    this.frames.set(seq, { data, end: headers[BUS_HEADERS.streamEnd] === '1' });
    this.lastFrameAt = now;
    this.wake?.();
  }

  /** The next frame in order; throws the failure once every frame before it has been taken. */
  async take(): Promise<StreamFrame> {
    for (;;) {
      const frame = this.frames.get(this.next);
      if (frame) {
        this.frames.delete(this.next);
        this.next++;
        return frame;
      }
      if (this.failure) throw this.failure;
      this.waitingSince = this.clock.now();
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
      this.waitingSince = undefined;
    }
  }

  /** Fails the stream from outside (the bus connection dropped). The first failure wins. */
  fail(error: Error): void {
    if (this.failure) return;
    this.failure = error;
    this.ticker.cancel();
    this.wake?.();
  }

  close(): void {
    this.ticker.cancel();
  }

  private tickMs(): number {
    const limits = [this.options.idleTimeoutMs, ...(this.silentLimitMs === undefined ? [] : [this.silentLimitMs])];
    return Math.max(10, Math.min(500, Math.floor(Math.min(...limits) / 6)));
  }

  private check(): void {
    if (this.failure) return;
    const now = this.clock.now();
    const sinceCheck = now - this.lastCheckAt;
    this.lastCheckAt = now;
    // This process was stalled (its event loop held for over two ticks: a long task, a pause for
    // garbage collection, a loaded machine): what the producer sent meanwhile may still wait in the
    // socket, unread, since timers run before the poll for I/O. The silence is this process's own,
    // so the judgement waits for the next tick, after that I/O has been read. Never twice in a
    // row: a process that stays this loaded still notices a dead producer, one tick later.
    if (sinceCheck > 2 * this.tickMs() && !this.deferred) {
      this.deferred = true;
      return;
    }
    this.deferred = false;
    const silentMs = now - this.lastSignAt;
    if (this.silentLimitMs !== undefined && silentMs > this.silentLimitMs) return this.fail(this.options.failure('silent', silentMs));
    if (this.waitingSince !== undefined && now - Math.max(this.waitingSince, this.lastFrameAt) > this.options.idleTimeoutMs) {
      this.fail(this.options.failure('idle', silentMs));
    }
  }
}
