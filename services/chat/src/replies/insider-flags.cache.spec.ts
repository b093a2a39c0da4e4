import { INSIDER_CONFIG_RPC, INSIDER_FLAGS_CHANGED } from '@app/contracts/insider-config';
import { encode } from '@app/platform';
import { FakeBroadcastBus } from '@app/platform/testing';
import { aCaller } from '../testing/builders';
import { FakeRpc } from '../testing/bus.fakes';
import { FLAGS_CACHE_MAX_USERS, FLAGS_CACHE_TTL_MS, FLAGS_TIMEOUT_MS, InsiderFlagsCache } from './insider-flags.cache';

const ALICE = '0b9d2c1e-7f4a-4e8b-9c3d-2a1b0c9d8e7f';
const BOB = '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b';

const flags = (show: boolean | null) => ({
  is_insider: true,
  is_insider_enabled: true,
  effective: {
    dislike_button_verbose_feedback: null,
    show_rewritten_user_message: show,
    show_auto_model_selection: null,
    enable_ko_search: null,
    can_create_invite: false,
  },
});

/** The cache over a fake insider-config service whose answer for each user can change, and a settable clock. */
async function setup() {
  const stored = new Map<string, boolean | null>();
  const rpc = new FakeRpc().answer(INSIDER_CONFIG_RPC.effectiveFlags, ({ user_id }) => flags(stored.get(user_id) ?? null));
  const bus = new FakeBroadcastBus();
  const clock = { now: 1_000_000 };
  const cache = new InsiderFlagsCache(rpc, bus, () => clock.now);
  await cache.onApplicationBootstrap();
  const asked = () => rpc.calls.filter((c) => c.subject === INSIDER_CONFIG_RPC.effectiveFlags.subject).length;
  const announce = (userId: string) => bus.publish(INSIDER_FLAGS_CHANGED.subject, encode({ user_id: userId }));
  return { stored, rpc, bus, clock, cache, asked, announce };
}

describe('InsiderFlagsCache', () => {
  it('asks the service once per user, with the caller and a timeout, then answers from memory', async () => {
    const { stored, rpc, cache, asked } = await setup();
    stored.set(ALICE, true);
    expect(await cache.showsRewrittenQuery(aCaller(ALICE))).toBe(true);
    expect(await cache.showsRewrittenQuery(aCaller(ALICE))).toBe(true);
    expect(await cache.showsRewrittenQuery(aCaller(BOB))).toBe(false);
    expect(asked()).toBe(2);
    expect(rpc.calls[0]).toMatchObject({ data: { user_id: ALICE }, caller: { user_id: ALICE }, timeoutMs: FLAGS_TIMEOUT_MS });
  });

  it('asks once for replies of one user that start together', async () => {
    const { stored, cache, asked } = await setup();
    stored.set(ALICE, true);
    const answers = await Promise.all(Array.from({ length: 20 }, () => cache.showsRewrittenQuery(aCaller(ALICE))));
    expect(answers.every(Boolean)).toBe(true);
    expect(asked()).toBe(1);
  });

  it("forgets a user's flags when the service announces a change: the next reply sees the new value", async () => {
    const { stored, cache, asked, announce } = await setup();
    stored.set(ALICE, true);
    stored.set(BOB, true);
    await cache.showsRewrittenQuery(aCaller(ALICE));
    await cache.showsRewrittenQuery(aCaller(BOB));
    stored.set(ALICE, false);
    announce(ALICE);
    expect(await cache.showsRewrittenQuery(aCaller(ALICE))).toBe(false);
    // Bob's entry was not touched.
    expect(await cache.showsRewrittenQuery(aCaller(BOB))).toBe(true);
    expect(asked()).toBe(3);
  });

  it('does not keep an answer that was asked for before a change was announced', async () => {
    const { stored, rpc, cache, announce } = await setup();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    rpc.answer(INSIDER_CONFIG_RPC.effectiveFlags, async ({ user_id }) => {
      await held;
      return flags(stored.get(user_id) ?? null);
    });
    stored.set(ALICE, true);
    const early = cache.showsRewrittenQuery(aCaller(ALICE));
    announce(ALICE); // the change lands while the (old) answer is on its way
    release();
    await early;
    stored.set(ALICE, false);
    expect(await cache.showsRewrittenQuery(aCaller(ALICE))).toBe(false);
  });

  it('trusts an entry for FLAGS_CACHE_TTL_MS, then asks again (an announcement may have been missed)', async () => {
    const { stored, clock, cache, asked } = await setup();
    stored.set(ALICE, true);
    await cache.showsRewrittenQuery(aCaller(ALICE));
    stored.set(ALICE, false);
    clock.now += FLAGS_CACHE_TTL_MS - 1;
    expect(await cache.showsRewrittenQuery(aCaller(ALICE))).toBe(true);
    clock.now += 1;
    expect(await cache.showsRewrittenQuery(aCaller(ALICE))).toBe(false);
    expect(asked()).toBe(2);
  });

  it('forgets everything when the bus connection is lost (announcements may have been missed meanwhile)', async () => {
    const { stored, bus, cache, asked } = await setup();
    stored.set(ALICE, true);
    await cache.showsRewrittenQuery(aCaller(ALICE));
    bus.loseConnection();
    stored.set(ALICE, false);
    expect(await cache.showsRewrittenQuery(aCaller(ALICE))).toBe(false);
    expect(asked()).toBe(2);
  });

  it('answers false without keeping it when the service fails, and asks again next time', async () => {
    const { stored, rpc, cache, asked } = await setup();
    rpc.answer(INSIDER_CONFIG_RPC.effectiveFlags, () => {
      throw new Error('away');
    });
    expect(await cache.showsRewrittenQuery(aCaller(ALICE))).toBe(false);
    stored.set(ALICE, true);
    rpc.answer(INSIDER_CONFIG_RPC.effectiveFlags, ({ user_id }) => flags(stored.get(user_id) ?? null));
    expect(await cache.showsRewrittenQuery(aCaller(ALICE))).toBe(true);
    expect(asked()).toBe(2);
  });

  it('never asks for a caller without a user id', async () => {
    const { cache, asked } = await setup();
    expect(await cache.showsRewrittenQuery({ ...aCaller(ALICE), user_id: null })).toBe(false);
    expect(asked()).toBe(0);
  });

  it('ignores what is not an announcement, without throwing into the bus', async () => {
    const { stored, bus, cache, asked } = await setup();
    stored.set(ALICE, true);
    await cache.showsRewrittenQuery(aCaller(ALICE));
    for (const data of [new TextEncoder().encode('not json{'), encode({}), encode({ user_id: 'not-a-uuid' }), new Uint8Array()]) {
      expect(() => bus.publish(INSIDER_FLAGS_CHANGED.subject, data)).not.toThrow();
    }
    await cache.showsRewrittenQuery(aCaller(ALICE));
    expect(asked()).toBe(1);
  });

  it('keeps at most FLAGS_CACHE_MAX_USERS users, dropping the oldest first', async () => {
    const { cache, asked } = await setup();
    const user = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    for (let i = 0; i <= FLAGS_CACHE_MAX_USERS; i++) await cache.showsRewrittenQuery(aCaller(user(i)));
    expect(asked()).toBe(FLAGS_CACHE_MAX_USERS + 1);
    await cache.showsRewrittenQuery(aCaller(user(FLAGS_CACHE_MAX_USERS)));
    expect(asked()).toBe(FLAGS_CACHE_MAX_USERS + 1);
    await cache.showsRewrittenQuery(aCaller(user(0)));
    expect(asked()).toBe(FLAGS_CACHE_MAX_USERS + 2);
  });

  it('stops listening on shutdown', async () => {
    const { bus, cache } = await setup();
    expect(bus.subscribers(INSIDER_FLAGS_CHANGED.subject)).toBe(1);
    await cache.onApplicationShutdown();
    expect(bus.subscribers(INSIDER_FLAGS_CHANGED.subject)).toBe(0);
  });
});
