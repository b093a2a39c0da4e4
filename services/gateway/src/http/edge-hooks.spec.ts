import type { AppLogger } from '@app/platform';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerApiCacheControl } from './cache-control.hook';
import { registerClosingRefusal } from './closing.hook';
import { REGION_BLOCKED_TEXT, registerRegionBlock } from './region-block.hook';
import { registerRequestState } from './request-state.hook';

const logger = { log: () => undefined, warn: () => undefined, error: () => undefined } as unknown as AppLogger;

/** A bare Fastify with the gateway's edge hooks, in the gateway's order, and two routes. */
async function edge(options: { header?: string; blocked?: string[] } = {}): Promise<FastifyInstance> {
  const fastify = Fastify();
  registerRequestState(fastify);
  registerClosingRefusal(fastify, logger);
  registerRegionBlock(fastify, { header: options.header, blocked: options.blocked ?? [], logger });
  registerApiCacheControl(fastify);
  fastify.get('/api/v1/thing', async () => ({ ok: true }));
  fastify.get('/api/v1/file', async (_request, reply) => reply.header('cache-control', 'private, max-age=60').send('bytes'));
  fastify.get('/page', async () => 'page');
  await fastify.ready();
  return fastify;
}

describe("the gateway's edge hooks", () => {
  it('answers the API no-store unless a route says otherwise, and leaves pages alone', async () => {
    const fastify = await edge();
    expect((await fastify.inject('/api/v1/thing')).headers['cache-control']).toBe('no-store');
    expect((await fastify.inject('/api/v1/file')).headers['cache-control']).toBe('private, max-age=60');
    expect((await fastify.inject('/page')).headers['cache-control']).toBeUndefined();
    await fastify.close();
  });

  it('refuses the API to a blocked region with 451 {detail}, by the configured header only', async () => {
    const fastify = await edge({ header: 'cf-ipcountry', blocked: ['KP'] });
    const refused = await fastify.inject({ url: '/api/v1/thing', headers: { 'cf-ipcountry': ' kp ' } });
    expect(refused.statusCode).toBe(451);
    expect(refused.json()).toEqual({ detail: REGION_BLOCKED_TEXT });
    expect((await fastify.inject({ url: '/api/v1/thing', headers: { 'cf-ipcountry': 'FR' } })).statusCode).toBe(200);
    expect((await fastify.inject({ url: '/page', headers: { 'cf-ipcountry': 'KP' } })).statusCode).toBe(200);
    await fastify.close();
    const open = await edge({ header: '', blocked: ['KP'] });
    expect((await open.inject({ url: '/api/v1/thing', headers: { 'cf-ipcountry': 'KP' } })).statusCode).toBe(200);
    await open.close();
  });

  it('answers 503 {detail} with Retry-After and Connection: close once the gateway is closing', async () => {
    const fastify = Fastify({ return503OnClosing: false });
    registerRequestState(fastify);
    registerClosingRefusal(fastify, logger);
    fastify.get('/api/v1/thing', async () => ({ ok: true }));
    let answer: { status: number; retryAfter: string | null; connection: string | null; body: unknown } | undefined;
    // A request that arrives while close() runs: after the gateway's own preClose hook, before the server stops listening.
    fastify.addHook('preClose', async () => {
      const response = await fetch(`${url}/api/v1/thing`);
      answer = {
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
        connection: response.headers.get('connection'),
        body: await response.json(),
      };
    });
    const url = await fastify.listen({ port: 0, host: '127.0.0.1' });
    expect((await fetch(`${url}/api/v1/thing`)).status).toBe(200);
    await fastify.close();
    expect(answer).toEqual({
      status: 503,
      retryAfter: '5',
      connection: 'close',
      body: { detail: 'The server is restarting, please try again shortly' },
    });
  });
});
