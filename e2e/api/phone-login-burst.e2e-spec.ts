import { TRANSPORTS } from '@app/testing';
import { startTestStack, type TestStack } from '../support/test-stack';
import { ApiClient, phoneNumbers } from '../support/api-client';

const BURST = 200;

/**
 * A burst of phone sign-ins against a service whose database pool is tiny (issue 11, 5b): the code is
 * hashed outside any transaction and the pepper loaded once, so no transaction waits for a second
 * connection of its own pool (which used to deadlock the pool and answer 500s). Should the pool still
 * run dry, the answer is a 503 `{detail}` with Retry-After (the code request) or a "try again" on the
 * code step (the callback, a page navigation): never a 500.
 */
describe.each(TRANSPORTS)('a burst of phone sign-ins with a pool of 2 connections over the %s transport', (transport) => {
  let booted: TestStack;
  const nextPhone = phoneNumbers(transport === 'nats' ? 3000 : 2000);

  beforeAll(async () => {
    booted = await startTestStack('burst', transport, {
      DB_POOL_MAX: '2',
      RATE_LIMIT_PER_MINUTE: '100000',
      PHONE_CODES_PER_IP: '10000',
      PHONE_VERIFY_PER_IP: '10000',
    });
  });

  afterAll(async () => {
    await booted?.close();
  });

  it(`answers ${BURST} concurrent code requests and then their ${BURST} callbacks without a 500`, async () => {
    const people = await Promise.all(
      Array.from({ length: BURST }, async () => {
        const api = new ApiClient(booted.stack.url);
        await api.fetchCsrf();
        return { api, phone: nextPhone() };
      }),
    );

    const sent = await Promise.all(people.map(({ api, phone }) => api.requestPhoneCode(phone)));
    for (const res of sent) {
      if (res.status === 503) {
        expect(res.body).toEqual({ detail: expect.any(String) });
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      } else {
        expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { sent: true, expires_in_seconds: 600 } });
      }
    }
    const asked = people.filter((_, i) => sent[i].status === 200);
    expect(asked.length).toBeGreaterThan(0);

    const codes = await Promise.all(asked.map(({ api, phone }) => api.smsCodeFor(phone)));
    const callbacks = await Promise.all(asked.map(({ api, phone }, i) => api.phoneCallback(phone, codes[i])));
    const busy = `/login?step=code&error=${encodeURIComponent('The service is busy. Try the same code again in a moment.')}`;
    for (const res of callbacks) {
      expect(res.status).toBe(302);
      expect(String(res.headers.location)).toMatch(new RegExp(`^(/login-success#access_token=|${busy.replace(/[?]/g, '\\?')}$)`));
    }
    const signedIn = callbacks.filter((res) => String(res.headers.location).startsWith('/login-success')).length;
    if (process.env.BURST_REPORT)
      process.stdout.write(`[burst ${transport}] codes sent ${asked.length}/${BURST}, signed in ${signedIn}/${asked.length}\n`);
    expect(signedIn).toBeGreaterThan(0);
  }, 120_000);
});
