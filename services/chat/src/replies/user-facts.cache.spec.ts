import { CHAT_USER_FACTS_CHANGED } from '@app/contracts/chat';
import { encode } from '@app/platform';
import { FakeBroadcastBus } from '@app/platform/testing';
import { FakeLogger } from '../testing/logger.fake';
import { USER_FACTS_MAX_USERS, USER_FACTS_TTL_MS, UserFactsCache } from './user-facts.cache';

const ALICE = '0b9d2c1e-7f4a-4e8b-9c3d-2a1b0c9d8e7f';
const BOB = '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b';
const PARIS = { timeZone: 'Europe/Paris', quietStartMinute: null, quietEndMinute: null };

/** Two replicas' caches on one bus, over "rows" a test changes, with a settable clock. */
async function setup() {
  const bus = new FakeBroadcastBus();
  const clock = { now: 1_000_000 };
  const replica = async () => {
    const cache = new UserFactsCache(bus, new FakeLogger(), () => clock.now);
    await cache.onApplicationBootstrap();
    return cache;
  };
  const rows = new Map<string, { servers: string[]; zone: string | null }>();
  let reads = 0;
  const row = (userId: string) => rows.get(userId) ?? { servers: [], zone: null };
  const servers = (cache: UserFactsCache, userId: string) => {
    if (cache.get(userId, 'hasMcpServers') === false) return Promise.resolve([]);
    return cache.lookup(
      userId,
      'hasMcpServers',
      async () => (reads++, [...row(userId).servers]),
      (list) => list.length > 0,
    );
  };
  return { bus, clock, rows, replica, servers, reads: () => reads };
}

describe('UserFactsCache', () => {
  it('keeps a fact once read, per user, and reads again what it does not know', async () => {
    const { replica, servers, reads } = await setup();
    const cache = await replica();
    expect(await servers(cache, ALICE)).toEqual([]);
    expect(await servers(cache, ALICE)).toEqual([]);
    expect(reads()).toBe(1);
    expect(cache.get(ALICE, 'reminderSettings')).toBeUndefined();
    expect(cache.get(BOB, 'hasMcpServers')).toBeUndefined();
  });

  it('reads once for lookups of one user that start together', async () => {
    const { replica, servers, reads } = await setup();
    const cache = await replica();
    await Promise.all(Array.from({ length: 20 }, () => servers(cache, ALICE)));
    expect(reads()).toBe(1);
  });

  it("makes every replica forget a user's facts when one says they changed, and only that user's", async () => {
    const { replica, servers, rows, reads } = await setup();
    const [a, b] = [await replica(), await replica()];
    await servers(b, ALICE);
    await servers(b, BOB);
    rows.set(ALICE, { servers: ['notes'], zone: null });
    expect(await servers(b, ALICE)).toEqual([]);

    a.changed(ALICE);
    expect(await servers(b, ALICE)).toEqual(['notes']);
    expect(b.get(BOB, 'hasMcpServers')).toBe(false);
    expect(reads()).toBe(3);
  });

  it('does not keep what a lookup under way when a change was heard read (it may predate the change)', async () => {
    const { replica } = await setup();
    const [a, b] = [await replica(), await replica()];
    let finish!: (value: null) => void;
    const reading = b.lookup(
      ALICE,
      'reminderSettings',
      () => new Promise<null>((resolve) => (finish = resolve)),
      (s) => s,
    );
    a.changed(ALICE);
    // A caller after the change does not join the lookup that began before it.
    const after = b.lookup(
      ALICE,
      'reminderSettings',
      async () => PARIS,
      (s) => s,
    );
    finish(null);
    expect(await reading).toBeNull();
    expect(await after).toEqual(PARIS);
    expect(b.get(ALICE, 'reminderSettings')).toEqual(PARIS);
  });

  it('keeps several facts of a user side by side', async () => {
    const { replica, servers } = await setup();
    const cache = await replica();
    await servers(cache, ALICE);
    await cache.lookup(
      ALICE,
      'reminderSettings',
      async () => PARIS,
      (s) => s,
    );
    expect(cache.get(ALICE, 'hasMcpServers')).toBe(false);
    expect(cache.get(ALICE, 'reminderSettings')).toEqual(PARIS);
  });

  it('forgets everything when the bus connection is lost (announcements may have been missed), keeps nothing until it is back, and trusts a fact for the backstop TTL', async () => {
    const { replica, servers, bus, clock, reads } = await setup();
    const cache = await replica();
    await servers(cache, ALICE);
    bus.loseConnection();
    expect(cache.get(ALICE, 'hasMcpServers')).toBeUndefined();
    // Read while a change made elsewhere would not be heard: answered, not kept.
    await servers(cache, ALICE);
    expect(cache.get(ALICE, 'hasMcpServers')).toBeUndefined();
    bus.reconnect();
    await servers(cache, ALICE);
    clock.now += USER_FACTS_TTL_MS - 1;
    expect(cache.get(ALICE, 'hasMcpServers')).toBe(false);
    clock.now += 1;
    expect(cache.get(ALICE, 'hasMcpServers')).toBeUndefined();
    expect(reads()).toBe(3);
  });

  it('ignores what is not an announcement, and keeps at most USER_FACTS_MAX_USERS users', async () => {
    const { replica, bus } = await setup();
    const cache = await replica();
    await cache.lookup(
      ALICE,
      'hasMcpServers',
      async () => [],
      () => false,
    );
    bus.publish(CHAT_USER_FACTS_CHANGED.subject, encode({ nobody: true }));
    bus.publish(CHAT_USER_FACTS_CHANGED.subject, new TextEncoder().encode('not json'));
    expect(cache.get(ALICE, 'hasMcpServers')).toBe(false);
    for (let i = 0; i < USER_FACTS_MAX_USERS; i++)
      await cache.lookup(
        `user-${i}`,
        'hasMcpServers',
        async () => [],
        () => false,
      );
    expect(cache.get(ALICE, 'hasMcpServers')).toBeUndefined();
    expect(cache.get(`user-${USER_FACTS_MAX_USERS - 1}`, 'hasMcpServers')).toBe(false);
  });

  it('stops hearing announcements once shut down', async () => {
    const { replica, bus } = await setup();
    const cache = await replica();
    expect(bus.subscribers(CHAT_USER_FACTS_CHANGED.subject)).toBe(1);
    await cache.onApplicationShutdown();
    expect(bus.subscribers(CHAT_USER_FACTS_CHANGED.subject)).toBe(0);
  });
});
