import type { FastifyInstance } from 'fastify';
import { echoRequestHeaders } from './request-context';
import { applySecurityHeaders } from './security-headers';

/** Every answer carries the request id (echoed) and the security headers (CSP, HSTS on https...). */
export function registerResponseHeaders(fastify: FastifyInstance): void {
  fastify.addHook('onSend', async (request, reply) => {
    echoRequestHeaders(request, reply);
    applySecurityHeaders(request, reply);
  });
}
