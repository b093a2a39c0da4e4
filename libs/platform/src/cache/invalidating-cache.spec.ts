import { z } from 'zod';
import { FakeBroadcastBus } from '../testing/fake-broadcast-bus';
import { encode } from '../transport/codec';
import { followInvalidations, InvalidatingCache } from './invalidating-cache';

const TTL_MS = 60_000;

/** A cache on a settable clock, and a source whose reads a test holds back and counts. */
function setup(maxEntries = 100) {
  const clock = { now: 1_000_000 };
  const cache = new InvalidatingCache<string>({ ttlMs: TTL_MS, maxEntries, now: () => clock.now });
  const rows = new Map<string, string>();
  let reads = 0;
  const read = (key: string) => async () => (reads++, rows.get(key) ?? 'none');
  const load = (key: string) => cache.load(key, read(key), (row) => row);
  return { clock, cache, rows, load, read, reads: () => reads };
}

/** A read the test finishes when it wants (a change may be heard meanwhile). */
function heldRead<T>() {
  let finish!: (value: T) => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<T>((resolve, reject) => ((finish = resolve), (fail = reject)));
  return { read: () => promise, finish, fail };
}

describe('InvalidatingCache', () => {
  it('keeps what a load read, per key, and knows nothing it did not load', async () => {
    const { cache, rows, load, reads } = setup();
    rows.set('a', 'Paris');
    expect(cache.get('a')).toBeUndefined();
    expect(await load('a')).toBe('Paris');
    expect(cache.get('a')).toBe('Paris');
    expect(cache.get('b')).toBeUndefined();
    expect(reads()).toBe(1);
  });

  it('keeps what `valueOf` finds in what was read, and hands what was read to the caller', async () => {
    const { cache } = setup();
    const servers = ['notes', 'calendar'];
    expect(
      await cache.load(
        'a',
        async () => servers,
        (list) => `${list.length} servers`,
      ),
    ).toBe(servers);
    expect(cache.get('a')).toBe('2 servers');
  });

  it('reads once for loads of one key that start together', async () => {
    const { cache, load, reads } = setup();
    const values = await Promise.all([...Array.from({ length: 10 }, () => load('a')), load('b')]);
    expect(values).toEqual(Array.from({ length: 11 }, () => 'none'));
    expect(reads()).toBe(2);
    expect(cache.get('a')).toBe('none');
  });

  it('trusts a value for ttlMs, then knows it no more', async () => {
    const { cache, clock, rows, load, reads } = setup();
    rows.set('a', 'Paris');
    await load('a');
    clock.now += TTL_MS - 1;
    expect(cache.get('a')).toBe('Paris');
    clock.now += 1;
    expect(cache.get('a')).toBeUndefined();
    rows.set('a', 'Tokyo');
    expect(await load('a')).toBe('Tokyo');
    expect(cache.get('a')).toBe('Tokyo');
    expect(reads()).toBe(2);
  });

  it('forgets one key when told, and only that one', async () => {
    const { cache, load } = setup();
    await load('a');
    await load('b');
    cache.invalidate('a');
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBe('none');
  });

  it('forgets every key when told', async () => {
    const { cache, load } = setup();
    await load('a');
    await load('b');
    cache.invalidateAll();
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeUndefined();
  });

  it('does not keep a value that was being read when its key was forgotten, even when the read ends last', async () => {
    const { cache } = setup();
    const early = heldRead<string>();
    const before = cache.load('a', early.read, (row) => row);
    cache.invalidate('a');
    // A caller after the change does not join the read that began before it: it reads again.
    const late = heldRead<string>();
    const after = cache.load('a', late.read, (row) => row);
    late.finish('Tokyo');
    expect(await after).toBe('Tokyo');
    early.finish('Paris');
    // Its callers get what it read, but it is not kept: the newer read's value stays.
    expect(await before).toBe('Paris');
    expect(cache.get('a')).toBe('Tokyo');
  });

  it('does not keep a value that was being read when everything was forgotten', async () => {
    const { cache } = setup();
    const held = heldRead<string>();
    const reading = cache.load('a', held.read, (row) => row);
    cache.invalidateAll();
    held.finish('Paris');
    expect(await reading).toBe('Paris');
    expect(cache.get('a')).toBeUndefined();
  });

  it("keeps a value being read when another key is forgotten (a change of one key leaves the others' loads alone)", async () => {
    const { cache } = setup();
    const held = heldRead<string>();
    const reading = cache.load('a', held.read, (row) => row);
    cache.invalidate('b');
    held.finish('Paris');
    await reading;
    expect(cache.get('a')).toBe('Paris');
  });

  it('keeps nothing when a read fails, fails each caller who joined it, and reads again next time', async () => {
    const { cache, rows, load, reads } = setup();
    const held = heldRead<string>();
    const first = cache.load('a', held.read, (row) => row);
    const joined = cache.load('a', held.read, (row) => row);
    held.fail(new Error('database away'));
    await expect(first).rejects.toThrow('database away');
    await expect(joined).rejects.toThrow('database away');
    expect(cache.get('a')).toBeUndefined();
    rows.set('a', 'Paris');
    expect(await load('a')).toBe('Paris');
    expect(reads()).toBe(1);
    // A read that throws before giving a promise fails the same way.
    await expect(
      cache.load(
        'b',
        () => {
          throw new Error('no connection');
        },
        (row: string) => row,
      ),
    ).rejects.toThrow('no connection');
    expect(cache.get('b')).toBeUndefined();
  });

  it('keeps at most maxEntries keys, the least recently stored going first', async () => {
    const { cache, load } = setup(3);
    await load('a');
    await load('b');
    await load('c');
    cache.invalidate('a'); // stored again: it becomes the most recent
    await load('a');
    await load('d');
    expect(cache.get('b')).toBeUndefined();
    expect([cache.get('a'), cache.get('c'), cache.get('d')]).toEqual(['none', 'none', 'none']);
  });
});

describe('followInvalidations', () => {
  const CHANGED = { subject: 'test.things.changed', payload: z.object({ thing_id: z.string().min(1) }).strict() };

  async function followed() {
    const bus = new FakeBroadcastBus();
    const caches = [0, 1].map(() => new InvalidatingCache<string>({ ttlMs: TTL_MS, maxEntries: 100 }));
    for (const cache of caches)
      for (const key of ['a', 'b'])
        await cache.load(
          key,
          async () => key.toUpperCase(),
          (row) => row,
        );
    const following = await followInvalidations(bus, CHANGED, (announced) => announced.thing_id, caches);
    const known = () => caches.map((cache) => [cache.get('a'), cache.get('b')]);
    return { bus, caches, following, known };
  }

  it('forgets the announced key in every cache it follows for, and nothing else', async () => {
    const { bus, known } = await followed();
    bus.publish(CHANGED.subject, encode({ thing_id: 'a' }));
    expect(known()).toEqual([
      [undefined, 'B'],
      [undefined, 'B'],
    ]);
  });

  it('ignores what is not an announcement, without throwing into the bus', async () => {
    const { bus, known } = await followed();
    for (const data of [new TextEncoder().encode('not json{'), encode({}), encode({ thing_id: 'a', extra: 1 }), new Uint8Array()])
      expect(() => bus.publish(CHANGED.subject, data)).not.toThrow();
    expect(known()).toEqual([
      ['A', 'B'],
      ['A', 'B'],
    ]);
  });

  it('forgets everything when the bus connection is lost (announcements may have been missed)', async () => {
    const { bus, known } = await followed();
    bus.loseConnection();
    expect(known()).toEqual([
      [undefined, undefined],
      [undefined, undefined],
    ]);
  });

  it('keeps nothing loaded while the connection is down, nor a load that began then and ended after it was back; keeps again once back', async () => {
    const { bus, caches } = await followed();
    const [cache] = caches;
    bus.loseConnection();
    expect(
      await cache.load(
        'a',
        async () => 'read while down',
        (row) => row,
      ),
    ).toBe('read while down');
    expect(cache.get('a')).toBeUndefined();

    const spanning = heldRead<string>();
    const answer = cache.load('b', spanning.read, (row) => row);
    bus.reconnect();
    spanning.finish('read across the reconnection');
    expect(await answer).toBe('read across the reconnection');
    expect(cache.get('b')).toBeUndefined();

    await cache.load(
      'a',
      async () => 'read once back',
      (row) => row,
    );
    expect(cache.get('a')).toBe('read once back');
  });

  it('does not keep a load that began before the connection was lost and ended once it was back', async () => {
    const { bus, caches } = await followed();
    const [cache] = caches;
    cache.invalidate('a');
    const spanning = heldRead<string>();
    const answer = cache.load('a', spanning.read, (row) => row);
    bus.loseConnection();
    bus.reconnect();
    spanning.finish('read before the loss');
    expect(await answer).toBe('read before the loss');
    expect(cache.get('a')).toBeUndefined();
  });

  it('stops following once closed', async () => {
    const { bus, following, known } = await followed();
    await following.close();
    expect(bus.subscribers(CHANGED.subject)).toBe(0);
    expect(bus.connectionListeners()).toBe(0);
    bus.publish(CHANGED.subject, encode({ thing_id: 'a' }));
    bus.loseConnection();
    expect(known()).toEqual([
      ['A', 'B'],
      ['A', 'B'],
    ]);
  });
});
