import { DomainError, type AppLogger } from '@app/platform';
import type { FastifyInstance } from 'fastify';
import { sendFailure } from './http-errors';

/**
 * While the gateway closes (SIGTERM), a new request is answered 503 `{detail}` with Retry-After and
 * `Connection: close` through the one error mapping, not Fastify's bare 503 (return503OnClosing off).
 */
export function registerClosingRefusal(fastify: FastifyInstance, logger: AppLogger): void {
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    if (!closing) return done();
    reply.header('connection', 'close').header('retry-after', '5');
    sendFailure(request, reply, new DomainError('unavailable', 'The server is restarting, please try again shortly'), logger);
  });
}
