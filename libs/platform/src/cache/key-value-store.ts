import { DomainError } from '../errors/domain-error';

/**
 * A small key-value store with expiry: Redis in the distributed mode, memory in the embedded one.
 * Used for rate limits, short-lived codes and caches; never for data that must survive.
 */
export interface KeyValueStore {
  readonly kind: 'redis' | 'memory';
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  /** Sets only when absent; returns whether it was set. */
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  /** Increments a counter, starting its expiry at the first increment. */
  increment(key: string, ttlSeconds: number): Promise<number>;
  /** Decrements a counter that exists (its expiry unchanged), never below zero; an absent one stays absent. */
  decrement(key: string): Promise<void>;
  delete(key: string): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class MemoryStore implements KeyValueStore {
  readonly kind = 'memory' as const;
  private readonly entries = new Map<string, { value: string; expiresAt: number }>();
  private readonly sweeper = setInterval(() => this.sweep(), 30_000).unref();

  private live(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }

  async get(key: string): Promise<string | null> {
    return this.live(key)?.value ?? null;
  }
  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    this.entries.set(key, { value, expiresAt: Date.now() + ttlSeconds * 1000 });
  }
  async setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean> {
    if (this.live(key)) return false;
    await this.set(key, value, ttlSeconds);
    return true;
  }
  async increment(key: string, ttlSeconds: number): Promise<number> {
    const entry = this.live(key);
    const next = (entry ? Number(entry.value) : 0) + 1;
    this.entries.set(key, { value: String(next), expiresAt: entry?.expiresAt ?? Date.now() + ttlSeconds * 1000 });
    return next;
  }
  async decrement(key: string): Promise<void> {
    const entry = this.live(key);
    if (entry) entry.value = String(Math.max(0, Number(entry.value) - 1));
  }
  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }
  async ping(): Promise<void> {}
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.entries.clear();
  }
}

/** The cache is unreachable: a request that needs it gets a 503 at once, not a 500 or a long wait. */
export class CacheUnavailableError extends DomainError {
  constructor(readonly reason: string) {
    super('unavailable', 'The service is temporarily unavailable; please try again shortly', 503, { retryAfterSeconds: 5 });
    this.name = 'CacheUnavailableError';
  }
}

/** Longest a Redis command may take before the request fails (a hung server, a lost network). */
const COMMAND_TIMEOUT_MS = 2_000;

/** DECR of a key that exists and is above zero (its expiry kept). */
const DECREMENT_EXISTING =
  "if redis.call('GET', KEYS[1]) and tonumber(redis.call('GET', KEYS[1])) > 0 then return redis.call('DECR', KEYS[1]) end return 0";

export class RedisStore implements KeyValueStore {
  readonly kind = 'redis' as const;

  private constructor(
    private readonly redis: import('ioredis').Redis,
    private readonly prefix: string,
  ) {}

  static async connect(url: string, prefix: string): Promise<RedisStore> {
    const { Redis } = await import('ioredis');
    // No offline queue: while Redis is away a command fails at once (and is answered 503) instead
    // of waiting for a reconnect; ioredis keeps reconnecting in the background.
    const redis = new Redis(url, {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      connectTimeout: COMMAND_TIMEOUT_MS,
      commandTimeout: COMMAND_TIMEOUT_MS,
    });
    redis.on('error', () => undefined); // reported by each failing command and by readiness, not as an unhandled event
    await redis.connect();
    return new RedisStore(redis, prefix ? `${prefix}:` : '');
  }

  /** Runs a command; a connection failure (not a command's own error) becomes CacheUnavailableError. */
  private async run<T>(command: () => Promise<T>): Promise<T> {
    if (this.redis.status !== 'ready') throw new CacheUnavailableError(`Redis is ${this.redis.status}`);
    try {
      return await command();
    } catch (error) {
      if (error instanceof Error && error.name === 'ReplyError') throw error;
      throw new CacheUnavailableError(error instanceof Error ? error.message : String(error));
    }
  }

  get(key: string): Promise<string | null> {
    return this.run(() => this.redis.get(this.prefix + key));
  }
  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    await this.run(() => this.redis.set(this.prefix + key, value, 'EX', ttlSeconds));
  }
  async setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean> {
    return (await this.run(() => this.redis.set(this.prefix + key, value, 'EX', ttlSeconds, 'NX'))) === 'OK';
  }
  async increment(key: string, ttlSeconds: number): Promise<number> {
    const k = this.prefix + key;
    const [[, count]] = (await this.run(() => this.redis.multi().incr(k).expire(k, ttlSeconds, 'NX').exec())) as [
      [unknown, number],
      unknown,
    ];
    return count;
  }
  async decrement(key: string): Promise<void> {
    // DECR alone would create an absent key (without expiry) at -1.
    await this.run(() => this.redis.eval(DECREMENT_EXISTING, 1, this.prefix + key));
  }
  async delete(key: string): Promise<void> {
    await this.run(() => this.redis.del(this.prefix + key));
  }
  async ping(): Promise<void> {
    if (this.redis.status !== 'ready') throw new Error(`Redis is ${this.redis.status} (unreachable)`);
    await this.redis.ping();
  }
  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
