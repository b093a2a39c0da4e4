import type { FastifyInstance } from 'fastify';

/** Every route registered, as `METHOD path` (HEAD left out), for the contract test and the docs. */
export function collectRoutes(fastify: FastifyInstance): string[] {
  const routes: string[] = [];
  fastify.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) if (method !== 'HEAD') routes.push(`${method} ${route.url}`);
  });
  return routes;
}
