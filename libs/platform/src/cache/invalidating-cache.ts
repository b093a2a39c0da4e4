import type { z } from 'zod';
import type { Bus } from '../transport/bus';
import { decodeOrUndefined } from '../transport/codec';

export interface InvalidatingCacheOptions {
  /** How long a value is trusted at most: the backstop for an announcement of a change that was missed. */
  ttlMs: number;
  /** How many keys are kept at most (the least recently stored go first). */
  maxEntries: number;
  /** The clock (tests set it). */
  now?: () => number;
}

/**
 * Values kept in this process, per key, that something else says when to forget: each change is
 * announced (`invalidate`, on every replica: see `followInvalidations`), entries expire after
 * `ttlMs` in case an announcement was missed, and a lost bus connection forgets everything
 * (`invalidateAll`). A value being loaded when its key (or everything) is forgotten is handed to
 * those who asked for it but not kept: it may have been read before the change. Nor is one loaded
 * while the announcements cannot be heard (`keepOnlyWhile`: the bus is down, so a change made
 * meanwhile would go unheard until the time-to-live). Made for the hot path: `get` allocates
 * nothing and never waits. `undefined` means "not known": never a value.
 */
export class InvalidatingCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();
  /** Loads under way, by key: callers of one key load once; forgetting the key drops its load. */
  private readonly loading = new Map<string, Promise<unknown>>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  /** Whether a change would be heard now (see `keepOnlyWhile`). */
  private trusted: () => boolean = () => true;

  constructor(options: InvalidatingCacheOptions) {
    this.ttlMs = options.ttlMs;
    this.maxEntries = options.maxEntries;
    this.now = options.now ?? Date.now;
  }

  /** The value if this process knows it and it has not expired; undefined otherwise (then `load` it). */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined || entry.until <= this.now()) return undefined;
    return entry.value;
  }

  /**
   * Reads with `read` (or joins the read of this key under way) and keeps `valueOf` what it read,
   * unless the key was forgotten meanwhile. What was read is shared between those who joined:
   * read-only. A read that fails keeps nothing and fails for each of them.
   */
  load<R>(key: string, read: () => Promise<R>, valueOf: (read: R) => V): Promise<R> {
    const under = this.loading.get(key);
    if (under !== undefined) return under as Promise<R>;
    let started: Promise<R>;
    try {
      started = read();
    } catch (error) {
      return Promise.reject(error as Error);
    }
    // A change made while the announcements cannot be heard would go unheard: what is read then is handed over, never kept.
    if (!this.trusted()) return started;
    const loaded: Promise<R> = started
      .then((value) => {
        // Still this key's load: no change was heard since it started (one drops it from `loading`),
        // and none could have been missed (a lost connection forgets every load under way too).
        if (this.loading.get(key) === loaded && this.trusted()) this.store(key, valueOf(value));
        return value;
      })
      .finally(() => {
        if (this.loading.get(key) === loaded) this.loading.delete(key);
      });
    this.loading.set(key, loaded);
    return loaded;
  }

  /** The key's value changed: forgotten, and a load of it under way will not be kept (later callers read again). */
  invalidate(key: string): void {
    this.entries.delete(key);
    this.loading.delete(key);
  }

  /** Everything may have changed (announcements were missed): every value and load under way is forgotten. */
  invalidateAll(): void {
    this.entries.clear();
    this.loading.clear();
  }

  /**
   * Keeps what is loaded only while `trusted` says a change would be heard (the bus is connected);
   * at other times what is read is handed to those who asked and read again next time.
   */
  keepOnlyWhile(trusted: () => boolean): void {
    this.trusted = trusted;
  }

  private store(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, until: this.now() + this.ttlMs });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }
}

/** An announcement of a change, said on the bus (a plain publish every replica hears): its subject and payload. */
export interface ChangeAnnouncement<P> {
  readonly subject: string;
  readonly payload: z.ZodType<P>;
}

/**
 * Keeps caches of this process in step with the announcements of a change: the key an
 * announcement names is forgotten in each, and everything when the bus connection is lost
 * (announcements may have been missed meanwhile); until it is back, the caches keep nothing they
 * load (a change made in that window would not be heard). Anything that is not such an
 * announcement is ignored, never thrown into the bus. `close` stops following (at shutdown).
 */
export async function followInvalidations<P>(
  bus: Pick<Bus, 'subscribe' | 'onConnectionLost' | 'connected'>,
  announcement: ChangeAnnouncement<P>,
  keyOf: (payload: P) => string,
  caches: readonly Pick<InvalidatingCache<unknown>, 'invalidate' | 'invalidateAll' | 'keepOnlyWhile'>[],
): Promise<{ close(): Promise<void> }> {
  for (const cache of caches) cache.keepOnlyWhile(() => bus.connected);
  const subscription = await bus.subscribe(announcement.subject, (message) => {
    const announced = announcement.payload.safeParse(decodeOrUndefined(message.data));
    if (!announced.success) return;
    const key = keyOf(announced.data);
    for (const cache of caches) cache.invalidate(key);
  });
  const stopWatching = bus.onConnectionLost(() => {
    for (const cache of caches) cache.invalidateAll();
  });
  return {
    close: async () => {
      for (const cache of caches) cache.keepOnlyWhile(() => false);
      stopWatching();
      await subscription.close();
    },
  };
}
