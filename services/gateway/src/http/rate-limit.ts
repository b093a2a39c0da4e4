import type { AppLogger } from '@app/platform';
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { declaredRouteOf } from './route-policy';
import type { RateLimitClass } from '@app/contracts/gateway';

const MINUTE_MS = 60_000;

/**
 * The stricter limits, by the class a route declares (`rateLimit` in libs/contracts): shares of
 * RATE_LIMIT_PER_MINUTE per address. `sign-in` and `texting` count besides the global limit;
 * `webhook` (Twilio's webhooks: every text and delivery report of every user arrives from Twilio's
 * few addresses) counts instead of it, in a bucket of its own.
 */
export const RATE_LIMIT_SHARES: Readonly<Record<RateLimitClass, number>> = {
  /** 60 a minute with the default 1200. */
  'sign-in': 1 / 20,
  /** 10 a minute with the default 1200. */
  texting: 1 / 120,
  /** 12,000 a minute with the default 1200. */
  webhook: 10,
};

export interface RateLimitOptions {
  /** RATE_LIMIT_PER_MINUTE: requests per client address and minute on the API. */
  perMinute: number;
  /** Counts in Redis when given (every replica sees the same count), in this process's memory otherwise. */
  redis?: Redis;
  /** Keeps the counters of one deployment (or one test run) apart in a shared Redis. */
  prefix: string;
  logger: AppLogger;
}

export interface RateVerdict {
  /** Over a limit: answer 429. */
  exceeded: boolean;
  /** The standard headers of the limit nearest to running out: x-ratelimit-limit, -remaining, -reset, and retry-after when exceeded. */
  headers: [string, string][];
}

export type RateLimitCheck = (request: FastifyRequest) => Promise<RateVerdict>;

/**
 * The limits of the API, counted by @fastify/rate-limit per client address (an IPv6 address by its
 * /64) in a fixed window of one minute: RATE_LIMIT_PER_MINUTE for every request, including unknown
 * paths, and a stricter share of it for the routes that declare a class (sign-in, texting). The gateway's onRequest hook asks and
 * answers a 429 itself, through the one error mapping. When the store fails (Redis away) the
 * request goes through and a warning is logged, at most once a minute: the limiter must not stop
 * the product; readiness reports Redis, and the sign-in code limits of the auth service still
 * answer 503 without it.
 */
export async function registerRateLimits(fastify: FastifyInstance, options: RateLimitOptions): Promise<RateLimitCheck> {
  await fastify.register(rateLimit, {
    global: false,
    ...(options.redis ? { redis: options.redis, nameSpace: `${options.prefix ? `${options.prefix}:` : ''}rate-limit:` } : {}),
  });
  const perAddress = (scope: string) => (request: FastifyRequest) => `${scope}:${normalizeIP(request.ip)}`;
  const global = fastify.createRateLimit({ max: options.perMinute, timeWindow: MINUTE_MS, keyGenerator: perAddress('api') });
  const limitOf = (name: RateLimitClass) =>
    fastify.createRateLimit({
      max: Math.max(1, Math.floor(options.perMinute * RATE_LIMIT_SHARES[name])),
      timeWindow: MINUTE_MS,
      keyGenerator: perAddress(name),
    });
  const classes: Record<RateLimitClass, ReturnType<typeof limitOf>> = {
    'sign-in': limitOf('sign-in'),
    texting: limitOf('texting'),
    webhook: limitOf('webhook'),
  };
  let warnedAt = -Infinity;

  return async (request) => {
    const named = declaredRouteOf(request)?.rateLimit;
    const limits = named === 'webhook' ? [classes.webhook] : named ? [global, classes[named]] : [global];
    let nearest: { max: number; remaining: number; ttlInSeconds: number; isExceeded: boolean } | undefined;
    for (const limit of limits) {
      let result: Awaited<ReturnType<typeof limit>>;
      try {
        result = await limit(request);
      } catch (error) {
        if (Date.now() - warnedAt >= MINUTE_MS) {
          warnedAt = Date.now();
          options.logger.warn(
            {
              msg: 'The rate limit cannot be counted, requests go through unlimited',
              reason: error instanceof Error ? error.message : String(error),
            },
            'RateLimit',
          );
        }
        return { exceeded: false, headers: [] };
      }
      if (result.isAllowed) continue;
      if (!nearest || result.isExceeded || (!nearest.isExceeded && result.remaining < nearest.remaining)) nearest = result;
      if (result.isExceeded) break;
    }
    if (!nearest) return { exceeded: false, headers: [] };
    // A window that has just closed shows 0 s left; wait at least a second.
    const reset = String(Math.max(1, nearest.ttlInSeconds));
    const headers: [string, string][] = [
      ['x-ratelimit-limit', String(nearest.max)],
      ['x-ratelimit-remaining', String(nearest.remaining)],
      ['x-ratelimit-reset', reset],
    ];
    if (nearest.isExceeded) headers.push(['retry-after', reset]);
    return { exceeded: nearest.isExceeded, headers };
  };
}

/** The Redis connection of the limiter: like the shared store's, a command fails at once while Redis is away. */
export async function connectRateLimitRedis(url: string): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2_000,
    commandTimeout: 2_000,
  });
  redis.on('error', () => undefined); // reported by the limiter's warning and by readiness
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new Error(`Cannot reach Redis at ${url} for the rate limit: ${error instanceof Error ? error.message : String(error)}`);
  }
  return redis;
}
