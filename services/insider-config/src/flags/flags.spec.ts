import type { PublicOf } from '@app/platform';
import { domainRefusal as refusal } from '@app/testing';
import type { Caller } from '@app/contracts';
import { DEFAULT_FLAGS, effectiveFlags, FlagsService, INSIDERS_ONLY_FLAGS, INSIDERS_ONLY_MODE, mergeFlags } from './flags.service';
import type { FlagsChanges } from './flags-changes';
import type { InsiderStatusRow, InsiderStatusRepository } from './insider-status.repository';

const stored = {
  dislike_button_verbose_feedback: true,
  show_rewritten_user_message: false,
  show_auto_model_selection: true,
  enable_ko_search: null,
  can_create_invite: true,
};

/** The repository's contract in memory: a change that throws leaves nothing behind. */
class FakeInsiderStatusRepository implements PublicOf<InsiderStatusRepository> {
  readonly rows = new Map<string, InsiderStatusRow>();

  async find(userId: string): Promise<InsiderStatusRow | null> {
    const row = this.rows.get(userId);
    return row ? structuredClone(row) : null;
  }

  async update(userId: string, change: (row: InsiderStatusRow) => void): Promise<InsiderStatusRow> {
    const row = structuredClone(this.rows.get(userId) ?? { isInsider: false, isInsiderEnabled: false, flags: {} });
    change(row);
    this.rows.set(userId, structuredClone(row));
    return row;
  }

  async setInsider(userId: string, isInsider: boolean): Promise<boolean> {
    const row = this.rows.get(userId);
    if (isInsider) {
      if (row?.isInsider) return false;
      this.rows.set(userId, { isInsiderEnabled: false, flags: {}, ...row, isInsider: true });
      return true;
    }
    if (!row || (!row.isInsider && !row.isInsiderEnabled)) return false;
    this.rows.set(userId, { ...row, isInsider: false, isInsiderEnabled: false });
    return true;
  }
}

const USER = '6f1c2a64-1b4e-4f7a-9c55-0c1d2e3f4a5b';
const callerOf = (userId: string | null, isAnon = false): Caller => ({
  user_id: userId,
  is_anon: isAnon,
  session_id: 's',
  request_id: 'r',
});

/** Records whom the service announced a change of flags for. */
class RecordedFlagsChanges implements FlagsChanges {
  readonly announced: string[] = [];
  announce(userId: string): void {
    this.announced.push(userId);
  }
}

function setup(allowList: string[] = []) {
  const store = new FakeInsiderStatusRepository();
  const changes = new RecordedFlagsChanges();
  return { store, changes, service: new FlagsService(store, { INSIDER_USER_IDS: allowList }, changes) };
}

describe('effective insider flags (spec section 4)', () => {
  it('are the stored flags when insider mode is on', () => {
    expect(effectiveFlags(stored, true)).toEqual(stored);
  });

  it('are all null but can_create_invite when insider mode is off', () => {
    expect(effectiveFlags(stored, false)).toEqual({ ...DEFAULT_FLAGS, can_create_invite: true });
  });

  it('default to all null and no invites for a non-insider, whatever is stored', async () => {
    const { store, service } = setup();
    store.rows.set('u', { isInsider: false, isInsiderEnabled: true, flags: stored });
    expect(await service.effective('u')).toEqual({ is_insider: false, is_insider_enabled: false, effective: DEFAULT_FLAGS });
  });

  it('treat an operator allow-listed user as an insider', async () => {
    const { service } = setup(['u']);
    expect(await service.effective('u')).toMatchObject({ is_insider: true, is_insider_enabled: false });
  });

  it('ignore a stored value that is not a flag value (an operator typo)', async () => {
    const { store, service } = setup();
    store.rows.set('u', {
      isInsider: true,
      isInsiderEnabled: true,
      flags: { can_create_invite: 'yes', enable_ko_search: true, nonsense: 1 } as never,
    });
    expect((await service.effective('u')).effective).toEqual({ ...DEFAULT_FLAGS, enable_ko_search: true });
  });
});

describe('insider mode switch', () => {
  it('answers false/false to a guest or anyone who is not an insider', async () => {
    const { service } = setup();
    expect(await service.status(callerOf(USER, true))).toEqual({ is_insider: false, is_insider_enabled: false });
  });

  it('refuses to turn insider mode on for a non-insider, writing nothing', async () => {
    const { store, service } = setup();
    const error = await refusal(service.setEnabled(callerOf(USER), true));
    expect(error).toMatchObject({ status: 403, detail: INSIDERS_ONLY_MODE });
    expect(store.rows.size).toBe(0);
  });

  it('always lets anyone turn it off, without creating a row for a non-insider', async () => {
    const { store, service } = setup();
    expect(await service.setEnabled(callerOf(USER), false)).toEqual({ is_insider: false, is_insider_enabled: false });
    expect(store.rows.size).toBe(0);
    store.rows.set(USER, { isInsider: false, isInsiderEnabled: true, flags: {} });
    expect(await service.setEnabled(callerOf(USER), false)).toEqual({ is_insider: false, is_insider_enabled: false });
    expect(store.rows.get(USER)?.isInsiderEnabled).toBe(false);
  });

  it('lets an insider (by the table or by INSIDER_USER_IDS) turn it on and off', async () => {
    const { store, service } = setup(['listed']);
    store.rows.set(USER, { isInsider: true, isInsiderEnabled: false, flags: {} });
    expect(await service.setEnabled(callerOf(USER), true)).toEqual({ is_insider: true, is_insider_enabled: true });
    expect(await service.setEnabled(callerOf(USER), false)).toEqual({ is_insider: true, is_insider_enabled: false });
    expect(await service.setEnabled(callerOf('listed'), true)).toEqual({ is_insider: true, is_insider_enabled: true });
    // The allow-list is never copied into the table: removing someone from it is enough to revoke.
    expect(store.rows.get('listed')).toMatchObject({ isInsider: false, isInsiderEnabled: true });
  });

  it('needs a signed-in caller', async () => {
    const { service } = setup();
    expect(await refusal(service.status(callerOf(null)))).toMatchObject({ status: 401 });
  });
});

describe('insider flags', () => {
  it('are refused to a non-insider (403), read and write alike, writing nothing', async () => {
    const { store, service } = setup();
    store.rows.set(USER, { isInsider: false, isInsiderEnabled: false, flags: {} });
    expect(await refusal(service.flags(callerOf(USER)))).toMatchObject({ status: 403, detail: INSIDERS_ONLY_FLAGS });
    expect(await refusal(service.updateFlags(callerOf(USER), { enable_ko_search: true }))).toMatchObject({ status: 403 });
    expect(store.rows.get(USER)?.flags).toEqual({});
  });

  it('merge a subset into the stored flags and answer the effective ones', async () => {
    const { store, service } = setup();
    store.rows.set(USER, { isInsider: true, isInsiderEnabled: true, flags: { show_auto_model_selection: true } });
    const answer = await service.updateFlags(callerOf(USER), { enable_ko_search: false, dislike_button_verbose_feedback: true });
    expect(answer).toEqual({
      ...DEFAULT_FLAGS,
      show_auto_model_selection: true,
      enable_ko_search: false,
      dislike_button_verbose_feedback: true,
    });
    expect(await service.flags(callerOf(USER))).toEqual(answer);
    await service.updateFlags(callerOf(USER), { show_auto_model_selection: null });
    expect(store.rows.get(USER)?.flags).toEqual({
      show_auto_model_selection: null,
      enable_ko_search: false,
      dislike_button_verbose_feedback: true,
    });
  });

  it('are stored but not in force while insider mode is off, except can_create_invite', async () => {
    const { store, service } = setup();
    store.rows.set(USER, { isInsider: true, isInsiderEnabled: false, flags: {} });
    const answer = await service.updateFlags(callerOf(USER), { enable_ko_search: true, can_create_invite: true });
    expect(answer).toEqual({ ...DEFAULT_FLAGS, can_create_invite: true });
    await service.setEnabled(callerOf(USER), true);
    expect(await service.flags(callerOf(USER))).toEqual({ ...DEFAULT_FLAGS, enable_ko_search: true, can_create_invite: true });
  });

  it('merge only the fields given', () => {
    expect(mergeFlags({ enable_ko_search: true }, { can_create_invite: false, show_rewritten_user_message: undefined })).toEqual({
      enable_ko_search: true,
      can_create_invite: false,
    });
  });
});

describe('operator commands', () => {
  it('grant and revoke the standing; revoking turns insider mode off', async () => {
    const { store, service } = setup();
    expect(await service.grant(USER)).toEqual({ changed: true, allowListed: false });
    expect(await service.grant(USER)).toEqual({ changed: false, allowListed: false });
    await service.setEnabled(callerOf(USER), true);
    expect(await service.revoke(USER)).toEqual({ changed: true, allowListed: false });
    expect(store.rows.get(USER)).toMatchObject({ isInsider: false, isInsiderEnabled: false });
    expect(await service.status(callerOf(USER))).toEqual({ is_insider: false, is_insider_enabled: false });
  });

  it('say when INSIDER_USER_IDS still makes the user an insider', async () => {
    const { service } = setup([USER]);
    expect(await service.revoke(USER)).toEqual({ changed: false, allowListed: true });
  });
});

describe('announcing changes to the services that keep flags for a moment', () => {
  it('announces every change the service makes, and only changes', async () => {
    const { changes, service } = setup([USER]);
    await service.status(callerOf(USER));
    await service.flags(callerOf(USER));
    expect(changes.announced).toEqual([]);
    await service.setEnabled(callerOf(USER), true);
    await service.updateFlags(callerOf(USER), { show_rewritten_user_message: true });
    expect(changes.announced).toEqual([USER, USER]);
  });

  it('announces nothing when a change is refused', async () => {
    const { changes, service } = setup();
    await refusal(service.setEnabled(callerOf(USER), true));
    await refusal(service.updateFlags(callerOf(USER), { enable_ko_search: true }));
    expect(changes.announced).toEqual([]);
  });

  it('announces an operator grant or revoke that changed the standing', async () => {
    const { changes, service } = setup();
    await service.grant(USER);
    await service.grant(USER);
    await service.revoke(USER);
    expect(changes.announced).toEqual([USER, USER]);
  });
});
