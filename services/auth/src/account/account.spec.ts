import { SERVICE_NAMES, type Caller } from '@app/contracts';
import { SESSION_STATE, sessionStateKey } from '@app/contracts/auth';
import { USER_EVENTS } from '@app/contracts/events';
import { DomainError } from '@app/platform';
import { authUnit, type AuthUnit } from '../store/auth-unit-of-work.fake';
import { AccountService } from './account.service';

const ADA = '00000000-0000-4000-8000-0000000000ad';
const BOB = '00000000-0000-4000-8000-0000000000b0';
const ADA_LAPTOP = '00000000-0000-4000-8000-0000000000a1';
const ADA_PHONE = '00000000-0000-4000-8000-0000000000a2';
const BOB_LAPTOP = '00000000-0000-4000-8000-0000000000b1';
const OTHERS = SERVICE_NAMES.filter((s) => s !== 'auth');

const callerOf = (userId: string | null): Caller => ({ user_id: userId, is_anon: false, session_id: ADA_LAPTOP, request_id: 'r' });

let unit: AuthUnit;
let account: AccountService;

async function start(waitMs = 0): Promise<void> {
  unit = await authUnit({ ACCOUNT_DELETION_WAIT_MS: waitMs });
  account = unit.get(AccountService);
  unit.data.addUser({ id: ADA, isAnon: false, phoneNumber: '+15550001111' });
  unit.data.addUser({ id: BOB, isAnon: false });
  unit.data.addSession({ id: ADA_LAPTOP, userId: ADA });
  unit.data.addSession({ id: ADA_PHONE, userId: ADA });
  unit.data.addSession({ id: BOB_LAPTOP, userId: BOB });
}

afterEach(() => unit.close());

const deletedEvents = () => unit.data.events.filter((e) => e.subject === USER_EVENTS.deleted.subject);
const confirmAll = async (deletionId: string) => {
  for (const service of OTHERS) await account.confirmPurge(deletionId, service);
};

describe('AccountService: asking to delete an account', () => {
  beforeEach(() => start());

  it("ends every session of the user at once (database and cache), and no one else's", async () => {
    await account.delete(callerOf(ADA));
    const revoked = (id: string) => unit.data.tables.sessions.get(id)!.revokedAt !== null;
    expect([revoked(ADA_LAPTOP), revoked(ADA_PHONE), revoked(BOB_LAPTOP)]).toEqual([true, true, false]);
    expect(await unit.kv.get(sessionStateKey(ADA_PHONE))).toBe(SESSION_STATE.ended);
  });

  it('records which services must purge, tells them (with the phone number), and answers pending when they have not yet', async () => {
    const answer = await account.delete(callerOf(ADA));
    expect(answer).toEqual({ deletion_id: expect.any(String), status: 'pending', pending_services: OTHERS });
    expect(unit.data.tables.deletions.get(answer.deletion_id)).toMatchObject({ userId: ADA, pendingServices: OTHERS, completedAt: null });
    expect(deletedEvents()).toEqual([
      { subject: USER_EVENTS.deleted.subject, payload: { user_id: ADA, deletion_id: answer.deletion_id, phone_number: '+15550001111' } },
    ]);
  });

  it('asked again while one is open: the same deletion, every service told again', async () => {
    const first = await account.delete(callerOf(ADA));
    await account.confirmPurge(first.deletion_id, 'chat');
    const second = await account.delete(callerOf(ADA));
    expect(second.deletion_id).toBe(first.deletion_id);
    expect(second.pending_services).toEqual(OTHERS.filter((s) => s !== 'chat'));
    expect(unit.data.tables.deletions.size).toBe(1);
    expect(deletedEvents()).toHaveLength(2);
  });

  it('answers 401 for a caller without a user, or a user already gone, recording and telling nothing', async () => {
    for (const caller of [callerOf(null), callerOf('00000000-0000-4000-8000-0000000000ff')]) {
      const error = await account.delete(caller).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).status).toBe(401);
    }
    expect(unit.data.tables.deletions.size).toBe(0);
    expect(unit.data.events).toEqual([]);
  });
});

describe('AccountService: confirmations', () => {
  beforeEach(() => start());

  it('removes the account only when the last service confirms, then forgets who it was', async () => {
    const { deletion_id: id } = await account.delete(callerOf(ADA));
    for (const service of OTHERS.slice(0, -1)) await account.confirmPurge(id, service);
    expect(unit.data.tables.users.has(ADA)).toBe(true);
    await account.confirmPurge(id, OTHERS.at(-1)!);
    expect(unit.data.tables.users.has(ADA)).toBe(false);
    expect(unit.data.tables.users.has(BOB)).toBe(true);
    const deletion = unit.data.tables.deletions.get(id)!;
    expect([deletion.userId, deletion.pendingServices]).toEqual([null, []]);
    expect(deletion.completedAt).not.toBeNull();
  });

  it('ignores a repeated confirmation, an unknown service, an unknown deletion and one after completion', async () => {
    const { deletion_id: id } = await account.delete(callerOf(ADA));
    await account.confirmPurge(id, 'chat');
    await account.confirmPurge(id, 'chat');
    await account.confirmPurge(id, 'auth');
    await account.confirmPurge(id, 'not-a-service');
    await account.confirmPurge('00000000-0000-4000-8000-00000000dead', 'memory');
    expect(unit.data.tables.deletions.get(id)!.pendingServices).toEqual(OTHERS.filter((s) => s !== 'chat'));
    await confirmAll(id);
    const completedAt = unit.data.tables.deletions.get(id)!.completedAt;
    await account.confirmPurge(id, 'memory');
    expect(unit.data.tables.deletions.get(id)!.completedAt).toEqual(completedAt);
  });

  it('a deletion asked after the last one completed is a new one', async () => {
    const first = await account.delete(callerOf(ADA));
    await confirmAll(first.deletion_id);
    unit.data.addUser({ id: ADA, isAnon: false });
    const second = await account.delete(callerOf(ADA));
    expect(second.deletion_id).not.toBe(first.deletion_id);
  });
});

describe('AccountService: waiting for the purge', () => {
  beforeEach(() => start(5_000));

  it('answers deleted when every service confirms within the wait', async () => {
    const answer = account.delete(callerOf(ADA));
    while (deletedEvents().length === 0) await new Promise((resolve) => setImmediate(resolve));
    await confirmAll((deletedEvents()[0].payload as { deletion_id: string }).deletion_id);
    expect(await answer).toMatchObject({ status: 'deleted', pending_services: [] });
  });
});
