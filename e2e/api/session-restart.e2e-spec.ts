import { bootEmbedded, type EmbeddedStack } from '@app/embedded';
import { createTestEnvironment, machine, TRANSPORTS, type TestEnvironment } from '@app/testing';
import { ApiClient, phoneNumbers } from '../support/api-client';

/**
 * Ended sessions stay ended (issue 11, High 2): the database is the source of truth, the cache only a
 * fast path. Tokens ended before a restart of the whole product (same database) — logout, logout of
 * every device, a deleted account, a guest merged into an account, a guest turned into one — are
 * refused after it, on both transports; with Redis (the NATS environment) its keys are flushed too.
 */
describe.each(TRANSPORTS)('ended sessions across a restart over the %s transport', (transport) => {
  let environment: TestEnvironment;
  let stack: EmbeddedStack;
  const nextPhone = phoneNumbers(transport === 'nats' ? 7000 : 6000);

  const boot = () =>
    bootEmbedded({
      ...environment.env,
      DEV_SMS_INBOX: 'true',
      PHONE_CODES_PER_IP: '1000',
      PHONE_VERIFY_PER_IP: '1000',
      ACCOUNT_DELETION_WAIT_MS: '15000',
    });
  const client = (token: string | null = null) => Object.assign(new ApiClient(stack.url), { token });
  const status = async (token: string) => (await client(token).get('/api/v1/auth/me')).status;

  /** Every key this stack holds in Redis (its prefix), as a FLUSHALL would, without touching other suites' keys. */
  async function flushCache(): Promise<number> {
    if (!environment.env.REDIS_URL) return 0;
    const { Redis } = await import('ioredis');
    const redis = new Redis(machine.redisUrl);
    try {
      let removed = 0;
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${environment.prefix}:*`, 'COUNT', 500);
        if (keys.length) removed += await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
      return removed;
    } finally {
      redis.disconnect();
    }
  }

  beforeAll(async () => {
    environment = await createTestEnvironment('restart', transport);
    stack = await boot();
  });

  afterAll(async () => {
    await stack?.close();
    await environment?.cleanup();
  });

  it('keeps logged-out, logged-out-everywhere, deleted, merged and converted tokens ended after a restart', async () => {
    // Still valid: an account that did nothing.
    const live = client();
    await live.signInByPhone(nextPhone());

    // Logout of this session.
    const loggedOut = client();
    await loggedOut.signInByPhone(nextPhone());
    await loggedOut.fetchCsrf();
    await loggedOut.withCsrf(loggedOut.http.post('/api/v1/auth/logout')).expect(200);

    // Logout of every device: the other device's token ends too.
    const everywherePhone = nextPhone();
    const deviceA = client();
    const deviceB = client();
    await deviceA.signInByPhone(everywherePhone);
    await deviceB.signInByPhone(everywherePhone);
    await deviceA.fetchCsrf();
    await deviceA.withCsrf(deviceA.http.post('/api/v1/auth/logout')).send({ all: true }).expect(200);

    // A deleted account.
    const deleted = client();
    await deleted.signInByPhone(nextPhone());
    await deleted.delete('/api/v1/users/me').expect(204);

    // A guest merged into an existing account, and a guest turned into a new one (both in their own browser).
    const accountPhone = nextPhone();
    await client().signInByPhone(accountPhone);
    const merged = client();
    const mergedGuestToken = await merged.guest();
    await merged.signInByPhone(accountPhone);
    const converted = client();
    const convertedGuestToken = await converted.guest();
    await converted.signInByPhone(nextPhone());

    const ended = {
      logout: loggedOut.token!,
      'logout everywhere (this device)': deviceA.token!,
      'logout everywhere (another device)': deviceB.token!,
      'deleted account': deleted.token!,
      'merged guest': mergedGuestToken,
      'converted guest': convertedGuestToken,
    };
    const check = async (when: string) => {
      const answers = Object.fromEntries(
        await Promise.all(Object.entries(ended).map(async ([name, token]) => [name, await status(token)])),
      );
      expect({ when, answers }).toEqual({ when, answers: Object.fromEntries(Object.keys(ended).map((name) => [name, 401])) });
      expect(await status(live.token!)).toBe(200);
      expect(await status(merged.token!)).toBe(200);
      expect(await status(converted.token!)).toBe(200);
      // A deleted user's token can never write again.
      await client(deleted.token).post('/api/v1/chats/', { conversation_title: 'After my deletion' }).expect(401);
    };
    await check('before the restart');

    // The cache forgets while the product runs (Redis flushed or evicted): the database still answers.
    await flushCache();
    await check('after the cache was flushed');

    // The whole product restarts on the same database (the in-memory cache starts empty; Redis is flushed).
    await stack.close();
    await flushCache();
    stack = await boot();
    await check('after the restart');
  }, 120_000);
});
