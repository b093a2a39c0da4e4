import type { Caller } from '@app/contracts';
import { activeSessionState, SESSION_STATE, sessionStateKey } from '@app/contracts/auth';
import { authUnit, type AuthUnit } from '../store/auth-unit-of-work.fake';
import { SessionsService } from './sessions.service';

const ADA = '00000000-0000-4000-8000-0000000000ad';
const BOB = '00000000-0000-4000-8000-0000000000b0';
const ADA_LAPTOP = '00000000-0000-4000-8000-0000000000a1';
const ADA_PHONE = '00000000-0000-4000-8000-0000000000a2';
const BOB_LAPTOP = '00000000-0000-4000-8000-0000000000b1';

const callerOf = (userId: string, sessionId: string): Caller => ({
  user_id: userId,
  is_anon: false,
  session_id: sessionId,
  request_id: 'r',
});

let unit: AuthUnit;
let sessions: SessionsService;

beforeEach(async () => {
  unit = await authUnit();
  sessions = unit.get(SessionsService);
  unit.data.addUser({ id: ADA, isAnon: false });
  unit.data.addUser({ id: BOB, isAnon: false });
  unit.data.addSession({ id: ADA_LAPTOP, userId: ADA });
  unit.data.addSession({ id: ADA_PHONE, userId: ADA });
  unit.data.addSession({ id: BOB_LAPTOP, userId: BOB });
});

afterEach(() => unit.close());

const revoked = (id: string) => unit.data.tables.sessions.get(id)!.revokedAt !== null;
const cached = (id: string) => unit.kv.get(sessionStateKey(id));

describe('SessionsService: ending sessions', () => {
  it("logs out the caller's own session: ended in the database and marked in the cache", async () => {
    await sessions.logout(callerOf(ADA, ADA_LAPTOP));
    expect([revoked(ADA_LAPTOP), revoked(ADA_PHONE), revoked(BOB_LAPTOP)]).toEqual([true, false, false]);
    expect(await cached(ADA_LAPTOP)).toBe(SESSION_STATE.ended);
    expect(await cached(ADA_PHONE)).toBeNull();
  });

  it("logs out every device of the caller's account with all, and nobody else's", async () => {
    await sessions.logout(callerOf(ADA, ADA_LAPTOP), true);
    expect([revoked(ADA_LAPTOP), revoked(ADA_PHONE), revoked(BOB_LAPTOP)]).toEqual([true, true, false]);
    expect([await cached(ADA_LAPTOP), await cached(ADA_PHONE), await cached(BOB_LAPTOP)]).toEqual([
      SESSION_STATE.ended,
      SESSION_STATE.ended,
      null,
    ]);
  });

  it("does not end a session that is not the caller's", async () => {
    await sessions.logout(callerOf(ADA, BOB_LAPTOP));
    expect(revoked(BOB_LAPTOP)).toBe(false);
  });

  it('overwrites a cached "active" with the ended mark', async () => {
    await unit.kv.set(sessionStateKey(ADA_LAPTOP), activeSessionState(ADA), 30);
    await sessions.logout(callerOf(ADA, ADA_LAPTOP));
    expect(await cached(ADA_LAPTOP)).toBe(SESSION_STATE.ended);
  });

  it('still ends the session in the database when the cache fails (the database is the truth)', async () => {
    jest.spyOn(unit.kv, 'set').mockRejectedValue(new Error('Redis is away'));
    await expect(sessions.logout(callerOf(ADA, ADA_LAPTOP))).resolves.toEqual({ logged_out: true });
    expect(revoked(ADA_LAPTOP)).toBe(true);
    expect(await sessions.status(ADA_LAPTOP, ADA)).toEqual({ active: false });
  });

  it('marks an ended session in the cache until the session would have expired, not longer', async () => {
    const set = jest.spyOn(unit.kv, 'set');
    unit.data.tables.sessions.get(ADA_LAPTOP)!.expiresAt = new Date(Date.now() + 120_000);
    await sessions.logout(callerOf(ADA, ADA_LAPTOP));
    const ttl = set.mock.calls[0][2];
    expect(ttl).toBeGreaterThan(100);
    expect(ttl).toBeLessThanOrEqual(120);
  });
});

describe('SessionsService: what the gateway asks when its cache does not know', () => {
  it.each([
    ['a live session of that user', ADA_LAPTOP, ADA, {}, true],
    ['a session of another user', BOB_LAPTOP, ADA, {}, false],
    ['an unknown session', '00000000-0000-4000-8000-00000000ffff', ADA, {}, false],
    ['an ended session', ADA_LAPTOP, ADA, { revokedAt: new Date() }, false],
    ['an expired session', ADA_LAPTOP, ADA, { expiresAt: new Date(Date.now() - 1000) }, false],
  ] as const)('%s: active is %s', async (_case, sessionId, userId, change, active) => {
    Object.assign(unit.data.tables.sessions.get(ADA_LAPTOP)!, change);
    expect(await sessions.status(sessionId, userId)).toEqual({ active });
  });

  it('answers not active once the user asked for their account to be deleted, and once the user is gone', async () => {
    await unit.data.repos.deletions.insert('00000000-0000-4000-8000-0000000000de', ADA, ['chat']);
    expect(await sessions.status(ADA_PHONE, ADA)).toEqual({ active: false });
    await unit.data.repos.deletions.purgeUser(ADA, null);
    expect(await sessions.status(ADA_PHONE, ADA)).toEqual({ active: false });
  });
});
