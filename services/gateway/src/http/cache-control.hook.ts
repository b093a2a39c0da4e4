import { API_PREFIX } from '@app/contracts/gateway';
import type { FastifyInstance } from 'fastify';

/** What the API answers is personal unless a route says otherwise (file bodies, the export...): `no-store`. */
export function registerApiCacheControl(fastify: FastifyInstance): void {
  fastify.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith(`${API_PREFIX}/`) && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
}
