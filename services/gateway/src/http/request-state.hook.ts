import { nameHttpServerSpan, runWithRequestContext } from '@app/platform';
import type { FastifyInstance } from 'fastify';
import { readRequestState } from './request-context';

/**
 * First of every request's hooks: its state (request id, start time), its trace span's name (the
 * route pattern), and the request id in the logging context of every hook and handler after it.
 */
export function registerRequestState(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    request.state = readRequestState(request);
    nameHttpServerSpan(request.method, request.routeOptions.url);
    runWithRequestContext({ request_id: request.state.requestId }, () => done());
  });
}
