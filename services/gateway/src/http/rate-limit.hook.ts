import { API_PREFIX } from '@app/contracts/gateway';
import type { AppLogger } from '@app/platform';
import type { FastifyInstance } from 'fastify';
import { sendFailure } from './http-errors';
import { connectRateLimitRedis, registerRateLimits } from './rate-limit';

/**
 * The API's per-client rate limits (@fastify/rate-limit, see rate-limit.ts), checked on every
 * /api/v1 request: counted in Redis when the process has one, in memory otherwise; past a limit,
 * 429 `{detail}` with the limit's headers.
 */
export async function registerRateLimitHook(
  fastify: FastifyInstance,
  options: { perMinute: number; redisUrl: string | undefined; prefix: string; logger: AppLogger },
): Promise<void> {
  const { logger } = options;
  const redis = options.redisUrl ? await connectRateLimitRedis(options.redisUrl) : undefined;
  if (redis) fastify.addHook('onClose', async () => void (await redis.quit().catch(() => redis.disconnect())));
  const check = await registerRateLimits(fastify, { perMinute: options.perMinute, redis, prefix: options.prefix, logger });
  fastify.addHook('onRequest', (request, reply, done) => {
    if (!request.url.startsWith(`${API_PREFIX}/`)) return done();
    check(request).then(
      ({ exceeded, headers }) => {
        for (const [name, value] of headers) reply.header(name, value);
        if (!exceeded) return done();
        sendFailure(request, reply, { statusCode: 429 }, logger);
      },
      (error: unknown) => done(error as Error),
    );
  });
}
