import { bootEmbedded, type EmbeddedStack } from '@app/embedded';
import { createTestEnvironment, TRANSPORTS, type TestEnvironment } from '@app/testing';
import request from 'supertest';

describe.each(TRANSPORTS)('rate limit over the %s transport', (transport) => {
  let environment: TestEnvironment;
  let stack: EmbeddedStack;

  beforeAll(async () => {
    environment = await createTestEnvironment('ratelimit', transport);
    stack = await bootEmbedded({ ...environment.env, RATE_LIMIT_PER_MINUTE: '5' });
  });

  afterAll(async () => {
    await stack?.close();
    await environment?.cleanup();
  });

  it('answers 429 with Retry-After once a client passes the limit, and spares the probes', async () => {
    const api = request(stack.url);
    for (let i = 0; i < 5; i++) {
      const allowed = await api.get('/api/v1/version/commit').expect(200);
      expect(allowed.headers).toMatchObject({ 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': String(4 - i) });
    }
    const limited = await api.get('/api/v1/version/commit').expect(429);
    expect(limited.body).toEqual({ detail: 'Too many requests, please slow down' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The 429 goes through the one mapping: the standard headers, the request id, the security headers.
    expect(limited.headers).toMatchObject({
      'x-ratelimit-limit': '5',
      'x-ratelimit-remaining': '0',
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    });
    expect(limited.headers['x-request-id']).toBeTruthy();
    expect(limited.headers['content-security-policy']).toContain("default-src 'self'");
    await api.get('/healthz').expect(200);
  });
});
