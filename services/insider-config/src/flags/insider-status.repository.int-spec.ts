import { randomUUID } from 'node:crypto';
import { forgetUser } from '@app/platform';
import { serviceDatabase, type ServiceDatabase } from '@app/testing';
import { insiderConfigMigrations } from '../migrations';
import { VoiceConfigEntity } from '../voice/voice-config.entity';
import { InsiderStatusEntity } from './insider-status.entity';
import { InsiderStatusRepository } from './insider-status.repository';

/**
 * The insider rows against the real PostgreSQL: a change is all or nothing (a refused change
 * leaves not even a default row), changes to one row queue rather than lose each other, a deleted
 * account gets no row back, and the operators' decision says whether it changed anything.
 */
describe('InsiderStatusRepository on PostgreSQL', () => {
  let db: ServiceDatabase;
  let statuses: InsiderStatusRepository;

  beforeAll(async () => {
    db = await serviceDatabase({
      label: 'insider',
      schema: 'insider_config',
      entities: [InsiderStatusEntity, VoiceConfigEntity],
      migrations: insiderConfigMigrations,
    });
    statuses = new InsiderStatusRepository(db.source);
  });

  afterAll(() => db?.drop());

  it('writes nothing, not even the default row, when the change throws', async () => {
    const userId = randomUUID();
    await expect(
      statuses.update(userId, () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await statuses.find(userId)).toBeNull();
  });

  it('serialises concurrent changes of one row: none is lost', async () => {
    const userId = randomUUID();
    await Promise.all([
      statuses.update(userId, (row) => void (row.flags = { ...row.flags, show_rewritten_user_message: true })),
      statuses.update(userId, (row) => void (row.flags = { ...row.flags, enable_ko_search: true })),
      statuses.update(userId, (row) => void (row.flags = { ...row.flags, can_create_invite: true })),
    ]);
    expect((await statuses.find(userId))?.flags).toEqual({
      show_rewritten_user_message: true,
      enable_ko_search: true,
      can_create_invite: true,
    });
  });

  it("refuses a deleted account's late write", async () => {
    const userId = randomUUID();
    await db.source.transaction((manager) => forgetUser(manager, userId));
    await expect(statuses.update(userId, (row) => void (row.isInsiderEnabled = true))).rejects.toMatchObject({ status: 401 });
    expect(await statuses.find(userId)).toBeNull();
  });

  it("answers whether the operators' decision changed anything; revoking turns insider mode off", async () => {
    const userId = randomUUID();
    expect(await statuses.setInsider(userId, true)).toBe(true);
    expect(await statuses.setInsider(userId, true)).toBe(false);
    await statuses.update(userId, (row) => void (row.isInsiderEnabled = true));

    expect(await statuses.setInsider(userId, false)).toBe(true);
    expect(await statuses.find(userId)).toMatchObject({ isInsider: false, isInsiderEnabled: false });
    expect(await statuses.setInsider(userId, false)).toBe(false);
    expect(await statuses.setInsider(randomUUID(), false)).toBe(false);
  });
});
