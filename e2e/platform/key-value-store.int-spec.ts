import { machine, uniqueName } from '@app/testing';
import { MemoryStore, RedisStore, Throttler, type KeyValueStore } from '@app/platform';

describe.each([
  ['memory', async () => new MemoryStore() as KeyValueStore],
  ['redis', async () => (await RedisStore.connect(machine.redisUrl, uniqueName('kv'))) as KeyValueStore],
])('the %s store', (_kind, create) => {
  let store: KeyValueStore;
  beforeEach(async () => (store = await create()));
  afterEach(() => store.close());

  it('sets, reads, expires and deletes', async () => {
    await store.set('a', '1', 1);
    expect(await store.get('a')).toBe('1');
    expect(await store.get('missing')).toBeNull();
    await store.delete('a');
    expect(await store.get('a')).toBeNull();
    await store.set('short', 'x', 1);
    await new Promise((r) => setTimeout(r, 1100));
    expect(await store.get('short')).toBeNull();
  });

  it('sets only when absent', async () => {
    expect(await store.setIfAbsent('once', 'first', 10)).toBe(true);
    expect(await store.setIfAbsent('once', 'second', 10)).toBe(false);
    expect(await store.get('once')).toBe('first');
  });

  it('counts, keeping the expiry of the first increment', async () => {
    expect(await store.increment('count', 1)).toBe(1);
    expect(await store.increment('count', 100)).toBe(2);
    await new Promise((r) => setTimeout(r, 1100));
    expect(await store.increment('count', 1)).toBe(1);
  });

  it('decrements a counter that exists, never below zero, keeping its expiry; an absent one stays absent', async () => {
    await store.increment('count', 1);
    await store.increment('count', 1);
    await store.decrement('count');
    expect(await store.get('count')).toBe('1');
    await store.decrement('count');
    await store.decrement('count');
    expect(await store.get('count')).toBe('0');
    await store.decrement('never');
    expect(await store.get('never')).toBeNull();
    await new Promise((r) => setTimeout(r, 1100));
    expect(await store.get('count')).toBeNull();
  });

  it('gives a throttled hit back: the limit counts it no more', async () => {
    const throttler = new Throttler(store);
    const limit = { name: 'test:give-back', limit: 2, windowMs: 60_000, detail: 'Slow down.' };
    await throttler.take(limit, 'u1', 90_000);
    await throttler.take(limit, 'u1', 90_000);
    await throttler.giveBack(limit, 'u1', 90_000);
    await expect(throttler.take(limit, 'u1', 90_000)).resolves.toBeUndefined();
    await expect(throttler.take(limit, 'u1', 90_000)).rejects.toMatchObject({ status: 429 });
  });

  it('backs one throttler count for every replica, with atomic increments', async () => {
    const replicas = [new Throttler(store), new Throttler(store)];
    const limit = { name: 'test:throttle', limit: 5, windowMs: 60_000, detail: 'Slow down.' };
    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => replicas[i % 2].take(limit, 'u1', 90_000)));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(5);
    expect(outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason)).toEqual(
      Array(3).fill(expect.objectContaining({ status: 429, retryAfterSeconds: 30 })),
    );
  });
});
