interface Waiter {
  key: string;
  grant(release: () => void): void;
}

/**
 * Fair shares of a limited concurrency (the offline voice's workers): at most `capacity` tasks run
 * at once, and when a slot frees it goes to the key (the user) with the fewest tasks running, then
 * to the one served least recently; one key's tasks run in the order they asked. A user with ten
 * requests in flight thus gets the same share as a user with one, and a newcomer is next in line.
 * Tasks are short (a sentence or a few), so a newcomer waits for one of them at most.
 */
export class FairQueue {
  private readonly running = new Map<string, number>();
  private readonly waiting = new Map<string, Waiter[]>();
  private readonly lastServed = new Map<string, number>();
  private inUse = 0;
  private served = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`FairQueue: capacity must be a positive integer, not ${capacity}`);
  }

  /** Tasks running and waiting, all keys together. */
  get load(): { running: number; waiting: number } {
    let waiting = 0;
    for (const list of this.waiting.values()) waiting += list.length;
    return { running: this.inUse, waiting };
  }

  /** Runs `task` in a slot of `key`'s share; a caller that aborts while waiting leaves the line (rejected with the signal's reason). */
  async run<T>(key: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(key, signal);
    try {
      return await task();
    } finally {
      release();
    }
  }

  acquire(key: string, signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { key, grant: resolve };
      const onAbort = () => {
        const list = this.waiting.get(key);
        const at = list?.indexOf(waiter) ?? -1;
        if (list && at >= 0) list.splice(at, 1);
        if (list?.length === 0) this.waiting.delete(key);
        reject(signal?.reason instanceof Error ? signal.reason : new Error('The task was abandoned'));
      };
      waiter.grant = (release) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(release);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const list = this.waiting.get(key);
      if (list) list.push(waiter);
      else this.waiting.set(key, [waiter]);
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.inUse < this.capacity) {
      const key = this.nextKey();
      if (key === null) return;
      const list = this.waiting.get(key)!;
      const waiter = list.shift()!;
      if (list.length === 0) this.waiting.delete(key);
      this.inUse += 1;
      this.running.set(key, (this.running.get(key) ?? 0) + 1);
      this.lastServed.set(key, ++this.served);
      let released = false;
      waiter.grant(() => {
        if (released) return;
        released = true;
        this.inUse -= 1;
        const left = (this.running.get(key) ?? 1) - 1;
        if (left > 0) this.running.set(key, left);
        else this.running.delete(key);
        if (!this.running.has(key) && !this.waiting.has(key)) this.lastServed.delete(key);
        this.dispatch();
      });
    }
  }

  /** The waiting key with the fewest running tasks, then the one served longest ago (never served: first). */
  private nextKey(): string | null {
    let best: string | null = null;
    let bestRunning = Infinity;
    let bestServed = Infinity;
    for (const key of this.waiting.keys()) {
      const running = this.running.get(key) ?? 0;
      const served = this.lastServed.get(key) ?? 0;
      if (running < bestRunning || (running === bestRunning && served < bestServed)) {
        best = key;
        bestRunning = running;
        bestServed = served;
      }
    }
    return best;
  }
}
