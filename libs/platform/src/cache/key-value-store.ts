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
  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }
  async ping(): Promise<void> {}
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.entries.clear();
  }
}

export class RedisStore implements KeyValueStore {
  readonly kind = 'redis' as const;

  private constructor(
    private readonly redis: import('ioredis').Redis,
    private readonly prefix: string,
  ) {}

  static async connect(url: string, prefix: string): Promise<RedisStore> {
    const { Redis } = await import('ioredis');
    const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: true });
    await redis.connect();
    return new RedisStore(redis, prefix ? `${prefix}:` : '');
  }

  async get(key: string): Promise<string | null> {
    return this.redis.get(this.prefix + key);
  }
  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    await this.redis.set(this.prefix + key, value, 'EX', ttlSeconds);
  }
  async setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean> {
    return (await this.redis.set(this.prefix + key, value, 'EX', ttlSeconds, 'NX')) === 'OK';
  }
  async increment(key: string, ttlSeconds: number): Promise<number> {
    const k = this.prefix + key;
    const [[, count]] = (await this.redis.multi().incr(k).expire(k, ttlSeconds, 'NX').exec()) as [[unknown, number], unknown];
    return count;
  }
  async delete(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }
  async ping(): Promise<void> {
    await this.redis.ping();
  }
  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
