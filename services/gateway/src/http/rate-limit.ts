import type { KeyValueStore } from '@app/platform';
import type { FastifyRequest } from 'fastify';

/**
 * A fixed one-minute window per client address, counted in the shared store (Redis in the
 * distributed mode, so every gateway replica sees the same count).
 */
export class RateLimiter {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly perMinute: number,
  ) {}

  /** Returns the seconds to wait when the caller is over the limit, else null. */
  async check(request: FastifyRequest): Promise<number | null> {
    const now = Date.now();
    const window = Math.floor(now / 60_000);
    const count = await this.kv.increment(`rate:${request.ip}:${window}`, 61);
    if (count <= this.perMinute) return null;
    return Math.max(1, Math.ceil(((window + 1) * 60_000 - now) / 1000));
  }
}
