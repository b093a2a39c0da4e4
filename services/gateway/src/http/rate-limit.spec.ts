import { API, routeEntries } from '@app/contracts/gateway';
import { AppLogger } from '@app/platform';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { registerRateLimits, type RateLimitCheck } from './rate-limit';

/** A bare Fastify with the limiter, answering 429 or 200 with the verdict's headers, as the gateway's hook does. */
async function serverWith(perMinute: number, redis?: Redis): Promise<{ app: FastifyInstance; lines: string[] }> {
  const lines: string[] = [];
  const logger = new AppLogger({ service: 'gateway', level: 'warn', format: 'json', sink: (line) => lines.push(line) });
  const app = Fastify({ trustProxy: true });
  const check: RateLimitCheck = await registerRateLimits(app, { perMinute, redis, prefix: 'test', logger });
  app.addHook('onRequest', async (request, reply) => {
    const verdict = await check(request);
    for (const [name, value] of verdict.headers) reply.header(name, value);
    if (verdict.exceeded) return reply.status(429).send({ detail: 'Too many requests, please slow down' });
  });
  app.get('/api/v1/version/commit', async () => ({ ok: true }));
  app.post('/api/v1/auth/anon', async () => ({ ok: true }));
  app.post('/api/v1/auth/login/phone_number', async () => ({ ok: true }));
  app.post('/api/v1/sms/group-invites/:invite_id/join', async () => ({ ok: true }));
  app.post('/api/v1/sms/groups/:channel_url/invites', async () => ({ ok: true }));
  app.post('/api/v1/sms/twilio/inbound', async () => ({ ok: true }));
  return { app, lines };
}

const from = (ip: string) => ({ 'x-forwarded-for': ip });

describe('registerRateLimits', () => {
  it("takes each route's stricter limit from its declaration in the contracts", () => {
    const classed = routeEntries(API).flatMap(([name, route]) => (route.rateLimit ? [`${name}: ${route.rateLimit}`] : []));
    expect(classed).toEqual([
      'auth.anon: sign-in',
      'auth.sendPhoneCode: sign-in',
      'dev.phoneInbound: texting',
      'sms.twilioInbound: webhook',
      'sms.twilioStatus: webhook',
      'sms.join: texting',
      'sms.createGroup: texting',
      'sms.createInvite: texting',
    ]);
  });

  it('counts per client address and answers with the standard headers, then 429 with Retry-After', async () => {
    const { app } = await serverWith(3);
    const first = await app.inject({ method: 'GET', url: '/api/v1/version/commit', headers: from('203.0.113.1') });
    expect(first.statusCode).toBe(200);
    expect(first.headers).toMatchObject({ 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': '2' });
    expect(Number(first.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
    expect(first.headers['retry-after']).toBeUndefined();
    for (let i = 0; i < 2; i++)
      expect((await app.inject({ url: '/api/v1/version/commit', headers: from('203.0.113.1') })).statusCode).toBe(200);
    const limited = await app.inject({ url: '/api/v1/version/commit', headers: from('203.0.113.1') });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers).toMatchObject({ 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': '0' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another address has its own count; unknown paths count too.
    expect((await app.inject({ url: '/api/v1/version/commit', headers: from('203.0.113.2') })).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/v1/nowhere', headers: from('203.0.113.1') })).statusCode).toBe(429);
    await app.close();
  });

  it("counts Twilio's webhooks apart from the browsers' requests, in a bucket ten times larger", async () => {
    const { app } = await serverWith(2);
    const twilio = from('54.172.60.1');
    for (let i = 0; i < 20; i++) {
      const inbound = await app.inject({ method: 'POST', url: '/api/v1/sms/twilio/inbound', headers: twilio });
      expect(inbound.statusCode).toBe(200);
    }
    expect((await app.inject({ method: 'POST', url: '/api/v1/sms/twilio/inbound', headers: twilio })).statusCode).toBe(429);
    // The same address's other requests have their own, ordinary limit, untouched by the webhooks.
    expect((await app.inject({ url: '/api/v1/version/commit', headers: twilio })).headers).toMatchObject({ 'x-ratelimit-remaining': '1' });
    await app.close();
  });

  it('counts the addresses of one IPv6 /64 together', async () => {
    const { app } = await serverWith(1);
    expect((await app.inject({ url: '/api/v1/version/commit', headers: from('2001:db8:1:2::1') })).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/v1/version/commit', headers: from('2001:db8:1:2::ffff') })).statusCode).toBe(429);
    expect((await app.inject({ url: '/api/v1/version/commit', headers: from('2001:db8:1:3::1') })).statusCode).toBe(200);
    await app.close();
  });

  it('limits the sign-in routes to a twentieth of the limit, shared by both and counted in the global limit too', async () => {
    const { app } = await serverWith(40);
    const ip = from('198.51.100.7');
    const anon = await app.inject({ method: 'POST', url: '/api/v1/auth/anon', headers: ip });
    expect(anon.statusCode).toBe(200);
    expect(anon.headers).toMatchObject({ 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': '1' });
    expect((await app.inject({ method: 'POST', url: '/api/v1/auth/login/phone_number', headers: ip })).statusCode).toBe(200);
    const refused = await app.inject({ method: 'POST', url: '/api/v1/auth/anon', headers: ip });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers).toMatchObject({ 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': '0' });
    // The other routes still answer, under the global limit (3 requests counted so far).
    const other = await app.inject({ url: '/api/v1/version/commit', headers: ip });
    expect(other.statusCode).toBe(200);
    expect(other.headers).toMatchObject({ 'x-ratelimit-limit': '40', 'x-ratelimit-remaining': '36' });
    await app.close();
  });

  it('limits the routes that send texts to a hundred-and-twentieth of the limit per address, whatever invite or group they name', async () => {
    const { app } = await serverWith(240);
    const ip = from('198.51.100.8');
    for (let i = 0; i < 2; i++) {
      const join = await app.inject({ method: 'POST', url: `/api/v1/sms/group-invites/invite${i}/join`, headers: ip });
      expect(join.statusCode).toBe(200);
      expect(join.headers).toMatchObject({ 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': String(1 - i) });
    }
    const refused = await app.inject({ method: 'POST', url: '/api/v1/sms/groups/trip-1/invites', headers: ip });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another address still may; the sign-in routes keep their own count.
    expect((await app.inject({ method: 'POST', url: '/api/v1/sms/group-invites/x/join', headers: from('198.51.100.9') })).statusCode).toBe(
      200,
    );
    expect((await app.inject({ method: 'POST', url: '/api/v1/auth/anon', headers: ip })).statusCode).toBe(200);
    await app.close();
  });

  it('lets requests through and warns once when the store fails (Redis away), instead of failing them', async () => {
    // Never connected, no offline queue: every command fails at once, as while Redis is down.
    const redis = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    redis.on('error', () => undefined);
    const { app, lines } = await serverWith(1, redis);
    for (let i = 0; i < 3; i++) {
      const response = await app.inject({ url: '/api/v1/version/commit', headers: from('203.0.113.9') });
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-ratelimit-limit']).toBeUndefined();
    }
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({
      level: 'warn',
      context: 'RateLimit',
      msg: 'The rate limit cannot be counted, requests go through unlimited',
    });
    await app.close();
    redis.disconnect();
  });
});
