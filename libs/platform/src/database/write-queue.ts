import { isTransientDatabaseError } from '../errors/infrastructure';

export interface WriteQueueOptions {
  /** Writes running at once: each holds one pool connection, so fewer than the pool's size. */
  concurrency: number;
  /** Attempts of a write (the first included) when it fails with a transient error; 1: never tried again. */
  attempts: number;
  /** The wait before the second attempt; it doubles after each (with jitter), up to `maxDelayMs`. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** Which errors are worth another attempt (default: isTransientDatabaseError). */
  isTransient?: (error: unknown) => boolean;
  /** Told before each wait for another attempt. */
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
}

export interface WriteOptions {
  /** Lower runs first (0 before 1); writes of one priority run in the order they came. */
  priority?: number;
  /** This write's attempts (default: the queue's). */
  attempts?: number;
  /** A write not started yet when this aborts is dropped (it rejects with the signal's reason). */
  signal?: AbortSignal;
}

interface Waiter {
  start: () => void;
  cancelled: boolean;
}

/**
 * Writes to the database, at most `concurrency` at once, in priority order, each tried again with a
 * growing, jittered wait while it fails with a transient error (the pool exhausted, the server away
 * or restarting, a serialization failure or deadlock). Many writes that come at once (thousands of
 * replies ending together) wait here, in memory, for their turn, rather than in the pool's queue,
 * where each would fail after the pool's connection timeout; and the writes that run leave the rest
 * of the pool to the requests. A write that still fails after its attempts rejects with its last error.
 */
export class WriteQueue {
  private running = 0;
  /** Waiting writes by priority (index), each list in arrival order from `heads[priority]`. */
  private readonly waiting: Waiter[][] = [];
  private readonly heads: number[] = [];
  private queued = 0;

  constructor(private readonly options: WriteQueueOptions) {
    if (!(options.concurrency >= 1)) throw new RangeError('A write queue runs at least one write at a time');
  }

  /** Writes running now. */
  get active(): number {
    return this.running;
  }

  /** Writes waiting for their turn (or for another attempt's turn). */
  get pending(): number {
    return this.queued;
  }

  async run<T>(write: () => Promise<T>, options: WriteOptions = {}): Promise<T> {
    const attempts = Math.max(1, options.attempts ?? this.options.attempts);
    const isTransient = this.options.isTransient ?? isTransientDatabaseError;
    for (let attempt = 1; ; attempt++) {
      await this.turn(options.priority ?? 0, options.signal);
      let failure: { error: unknown } | undefined;
      try {
        return await write();
      } catch (error) {
        if (attempt >= attempts || !isTransient(error)) throw error;
        failure = { error };
      } finally {
        this.done();
      }
      const delayMs = this.delayBefore(attempt + 1);
      this.options.onRetry?.(failure.error, attempt, delayMs);
      await sleep(delayMs, options.signal);
    }
  }

  /** The wait before attempt `attempt` (2 or more): doubling from firstDelayMs, capped, between half and all of it. */
  private delayBefore(attempt: number): number {
    const full = Math.min(this.options.maxDelayMs, this.options.firstDelayMs * 2 ** (attempt - 2));
    return full / 2 + Math.random() * (full / 2);
  }

  /** Resolves once this write may run (a slot is taken for it). */
  private turn(priority: number, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (this.running < this.options.concurrency && this.queued === 0) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        cancelled: false,
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        if (waiter.cancelled) return;
        waiter.cancelled = true;
        this.queued--;
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      (this.waiting[priority] ??= []).push(waiter);
      this.heads[priority] ??= 0;
      this.queued++;
    });
  }

  /** A write ended: its slot goes to the first waiting write of the lowest priority. */
  private done(): void {
    this.running--;
    while (this.running < this.options.concurrency && this.queued > 0) {
      const next = this.next();
      if (!next) return;
      this.running++;
      next.start();
    }
  }

  private next(): Waiter | undefined {
    for (let priority = 0; priority < this.waiting.length; priority++) {
      const list = this.waiting[priority];
      if (!list) continue;
      while (this.heads[priority] < list.length) {
        const waiter = list[this.heads[priority]++];
        if (waiter.cancelled) continue;
        waiter.cancelled = true; // taken: an abort from now on changes nothing
        this.queued--;
        if (this.heads[priority] === list.length) {
          list.length = 0;
          this.heads[priority] = 0;
        }
        return waiter;
      }
      list.length = 0;
      this.heads[priority] = 0;
    }
    return undefined;
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
