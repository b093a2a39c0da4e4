import { Inject, Injectable } from '@nestjs/common';
import type { KeyValueStore } from '../cache/key-value-store';
import { DomainError } from '../errors/domain-error';
import { KEY_VALUE_STORE } from '../runtime/tokens';

/** One limit: how many hits a key may have in a window, and what a refused hit is told. */
export interface ThrottleLimit {
  /** Names the limit in the store's keys (`chat:daily`, `auth:codes:ip`...). */
  name: string;
  /** Hits allowed per window. */
  limit: number;
  windowMs: number;
  /**
   * `clock` (the default): windows counted from the epoch (UTC days, clock minutes and hours), and
   * a refusal says when the window ends (Retry-After). `first-hit`: each key's window opens at its
   * first hit.
   */
  windows?: 'clock' | 'first-hit';
  /** The refusal's sentence, shown to the user as it is. */
  detail: string;
}

/** A hit past its limit: 429, with the seconds to the window's end when they are known. */
export class ThrottledError extends DomainError {
  constructor(detail: string, retryAfterSeconds?: number) {
    super('rate_limited', detail, 429, retryAfterSeconds === undefined ? {} : { retryAfterSeconds });
    this.name = 'ThrottledError';
  }
}

/**
 * The one fixed-window counter every limit uses (daily messages, voice requests per minute, guests
 * per network, phone codes). Counts live in the platform's key-value store: Redis when REDIS_URL is
 * set (one atomic INCR and EXPIRE per hit, so every replica sees one count), memory otherwise.
 */
@Injectable()
export class Throttler {
  constructor(@Inject(KEY_VALUE_STORE) private readonly kv: Pick<KeyValueStore, 'increment' | 'decrement'>) {}

  /** The clock (a test sets its own). */
  now: () => number = Date.now;

  /** Counts one hit of `key` under `limit`; throws ThrottledError past it. */
  async take(limit: ThrottleLimit, key: string, now = this.now()): Promise<void> {
    const windowSeconds = Math.ceil(limit.windowMs / 1000);
    if (limit.windows === 'first-hit') {
      if ((await this.kv.increment(`${limit.name}:${key}`, windowSeconds)) > limit.limit) throw new ThrottledError(limit.detail);
      return;
    }
    const window = Math.floor(now / limit.windowMs);
    // The counter outlives its window by a minute, so a hit at the window's last instant still finds it.
    const count = await this.kv.increment(`${limit.name}:${key}:${window}`, windowSeconds + 60);
    if (count > limit.limit) {
      throw new ThrottledError(limit.detail, Math.max(1, Math.ceil(((window + 1) * limit.windowMs - now) / 1000)));
    }
  }

  /**
   * Uncounts one hit of `key` taken at `now` (a request refused after it was counted, for a reason
   * that must not use up the limit). A hit past the limit was refused anyway: only counted hits are given back.
   */
  async giveBack(limit: ThrottleLimit, key: string, now = this.now()): Promise<void> {
    const counter = limit.windows === 'first-hit' ? `${limit.name}:${key}` : `${limit.name}:${key}:${Math.floor(now / limit.windowMs)}`;
    await this.kv.decrement(counter);
  }
}
