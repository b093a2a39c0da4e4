import { platformMetrics, runWithRequestContext, type AppLogger } from '@app/platform';
import type { FastifyInstance } from 'fastify';

/**
 * One log line and one metric per answered request (health probes left out): the method, the path
 * only (query strings may carry one-time codes), the status, the time taken and the user's label.
 */
export function registerAccessLog(fastify: FastifyInstance, logger: AppLogger): void {
  fastify.addHook('onResponse', async (request, reply) => {
    const path = request.url.split('?')[0];
    if (path === '/healthz' || path === '/readyz') return;
    // By route pattern, never the URL (ids would make a series per conversation).
    platformMetrics.recordHttp(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    const ms = Math.round(performance.now() - (request.state?.startedAt ?? performance.now()));
    runWithRequestContext({ request_id: request.state?.requestId ?? String(request.id) }, () =>
      logger.log(
        {
          msg: `${request.method} ${path} ${reply.statusCode} ${ms}ms`,
          status: reply.statusCode,
          ms,
          user_label: request.state?.userLabel ?? undefined,
        },
        'Http',
      ),
    );
  });
}
