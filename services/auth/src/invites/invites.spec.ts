import type { Caller } from '@app/contracts';
import { INSIDER_CONFIG_RPC } from '@app/contracts/insider-config';
import { refusal } from '@app/testing';
import { authUnit, fixTheDate, type AuthUnit } from '../store/auth-unit-of-work.fake';
import { InvitesService } from './invites.service';

const ADA = '00000000-0000-4000-8000-0000000000ad';
const BOB = '00000000-0000-4000-8000-0000000000b0';
const EVE = '00000000-0000-4000-8000-0000000000e0';
const DAY = 24 * 3600 * 1000;
const NOW = new Date('2026-11-21T12:00:00Z');

const callerOf = (userId: string | null, isAnon = false): Caller => ({
  user_id: userId,
  is_anon: isAnon,
  session_id: 's',
  request_id: 'r',
});

let unit: AuthUnit;
let invites: InvitesService;
/** can_create_invite per user, as the insider-config service would answer. */
let allowed: Record<string, boolean | null>;

beforeEach(async () => {
  fixTheDate(NOW);
  unit = await authUnit();
  invites = unit.get(InvitesService);
  allowed = { [ADA]: true, [BOB]: false };
  unit.rpc.answers.set(INSIDER_CONFIG_RPC.effectiveFlags.subject, (data) => ({
    effective: { can_create_invite: allowed[(data as { user_id: string }).user_id] ?? null },
  }));
});

afterEach(async () => {
  await unit.close();
  jest.useRealTimers();
});

const invite = (maxUses: number, days = 7) => invites.create(callerOf(ADA), { max_uses: maxUses, expires_in_days: days });

describe('InvitesService: creating invites', () => {
  it('makes an unguessable link for a user allowed to, expiring after the days asked', async () => {
    const made = await invites.create(callerOf(ADA), { max_uses: 3, expires_in_days: 2, group_id: 'g-1' });
    expect(made).toMatchObject({ max_uses: 3, uses: 0, group_id: 'g-1', expires_at: new Date(NOW.getTime() + 2 * DAY).toISOString() });
    expect(made.invite_link_id).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect((await invite(1)).invite_link_id).not.toBe(made.invite_link_id);
    expect(unit.data.tables.invites.get(made.invite_link_id)!.createdBy).toBe(ADA);
  });

  it('asks the insider-config service about the caller, and only the caller', async () => {
    await invite(1);
    expect(unit.rpc.calls).toEqual([{ subject: INSIDER_CONFIG_RPC.effectiveFlags.subject, data: { user_id: ADA } }]);
  });

  it('refuses when can_create_invite is false or unset (only true allows)', async () => {
    for (const who of [BOB, EVE]) {
      expect(await refusal(invites.create(callerOf(who), { max_uses: 1, expires_in_days: 1 }))).toEqual({
        status: 403,
        detail: 'You are not allowed to create invites.',
      });
    }
    expect(unit.data.tables.invites.size).toBe(0);
  });

  it('refuses guests and callers without a user before asking anything', async () => {
    for (const caller of [callerOf(ADA, true), callerOf(null)]) {
      expect(await refusal(invites.create(caller, { max_uses: 1, expires_in_days: 1 }))).toEqual({
        status: 403,
        detail: 'Sign in to create invites.',
      });
    }
    expect(unit.rpc.calls).toEqual([]);
  });

  it('has no group unless one is given', async () => {
    expect((await invite(1)).group_id).toBeNull();
  });
});

describe('InvitesService: using invites', () => {
  const redeem = (id: string, userId: string) => unit.data.transaction((repos) => invites.redeem(repos, id, userId));

  it('is usable until its uses are spent, each user counting once', async () => {
    const { invite_link_id: id } = await invite(2);
    expect(await invites.usable(id)).toBe(true);
    expect(await redeem(id, BOB)).toBe(true);
    expect(await redeem(id, BOB)).toBe(true);
    expect(unit.data.tables.invites.get(id)!.uses).toBe(1);
    expect(await redeem(id, EVE)).toBe(true);
    expect(await invites.usable(id)).toBe(false);
    expect(await redeem(id, ADA)).toBe(false);
    expect(unit.data.tables.invites.get(id)!.uses).toBe(2);
  });

  it('lets a user who already redeemed sign in again with a spent or expired link', async () => {
    const { invite_link_id: id } = await invite(1, 1);
    await redeem(id, BOB);
    jest.setSystemTime(new Date(NOW.getTime() + 2 * DAY));
    expect(await invites.usable(id)).toBe(false);
    expect(await redeem(id, BOB)).toBe(true);
    expect(await redeem(id, EVE)).toBe(false);
  });

  it('expires at its expiry instant exactly', async () => {
    const { invite_link_id: id } = await invite(5, 1);
    jest.setSystemTime(new Date(NOW.getTime() + DAY - 1));
    expect(await invites.usable(id)).toBe(true);
    jest.setSystemTime(new Date(NOW.getTime() + DAY));
    expect(await invites.usable(id)).toBe(false);
    expect(await redeem(id, BOB)).toBe(false);
  });

  it('knows no unknown link, nor a hostile id', async () => {
    for (const id of ['nope', '', 'a\u0000b', '../../etc']) {
      expect(await invites.usable(id)).toBe(false);
      expect(await redeem(id, BOB)).toBe(false);
    }
  });
});
