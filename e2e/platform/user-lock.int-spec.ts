import {
  ACCOUNT_DELETED,
  CreateForgottenUsers1763700000002,
  CreateLivingUserFunction1795451730725,
  createServiceDataSource,
  DomainError,
  forgetUser,
  lockLivingUser,
  lockUser,
  migrate,
} from '@app/platform';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { sleep } from '../support/until';

/** A transaction that takes a lock, then holds it (and its connection) until `release` is called. */
function holding(source: DataSource, take: (manager: EntityManager) => Promise<void>) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let taken!: () => void;
  const hasLock = new Promise<void>((resolve) => (taken = resolve));
  const done = source.transaction(async (manager) => {
    await take(manager);
    taken();
    await released;
  });
  return { hasLock, release, done };
}

/** Whether `promise` is still pending after `ms` (a lock wait that never ends is what this proves). */
async function stillWaiting(promise: Promise<unknown>, ms = 300): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await sleep(ms);
  return !settled;
}

/**
 * The per-user lock against the real PostgreSQL: writes for a user (lockLivingUser) share it, so a
 * user's parallel replies never queue behind each other; the purge (lockUser) takes it alone, so a
 * write and the purge never interleave, and a write that waited for a purge is refused after it.
 */
describe('the per-user lock', () => {
  let database: TestDatabase;
  let source: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase('userlock');
    source = createServiceDataSource({
      url: database.url,
      schema: 'svc',
      entities: [],
      migrations: [CreateForgottenUsers1763700000002, CreateLivingUserFunction1795451730725],
      poolMax: 6,
      applicationName: 'user-lock-test',
    });
    await source.initialize();
    await migrate(source, 'svc');
  });
  afterAll(async () => {
    await source?.destroy();
    await database?.drop();
  });

  it('lets two writes for the same user run at once', async () => {
    const user = randomUUID();
    const first = holding(source, (manager) => lockLivingUser(manager, user));
    await first.hasLock;
    // The second write takes the lock while the first still holds it (it would hang here otherwise).
    await source.transaction((manager) => lockLivingUser(manager, user));
    first.release();
    await first.done;
  });

  it('holds a write back while the purge runs, then refuses it: the account is gone', async () => {
    const user = randomUUID();
    const purge = holding(source, async (manager) => {
      await lockUser(manager, user);
      await forgetUser(manager, user);
    });
    await purge.hasLock;
    const write = source.transaction((manager) => lockLivingUser(manager, user));
    expect(await stillWaiting(write)).toBe(true);
    purge.release();
    await purge.done;
    await expect(write).rejects.toMatchObject({ status: 401, message: ACCOUNT_DELETED });
    await expect(write).rejects.toBeInstanceOf(DomainError);
  });

  it('refuses a one-statement write (living_user inside a CTE) that waited for the purge, and writes nothing', async () => {
    await source.query('CREATE TABLE IF NOT EXISTS svc.note (user_id text NOT NULL, body text NOT NULL)');
    const user = randomUUID();
    const purge = holding(source, async (manager) => {
      await lockUser(manager, user);
      await forgetUser(manager, user);
    });
    await purge.hasLock;
    // The statement's own snapshot is older than the purge: only the function's fresh one sees it.
    const write: Promise<{ alive: boolean; written: number }[]> = source.query(
      `WITH living AS (SELECT living_user($1) AS alive),
            added AS (INSERT INTO note (user_id, body) SELECT $1, 'hello' FROM living WHERE alive RETURNING 1)
       SELECT living.alive, (SELECT count(*)::int FROM added) AS written FROM living`,
      [user],
    );
    expect(await stillWaiting(write)).toBe(true);
    purge.release();
    await purge.done;
    expect(await write).toEqual([{ alive: false, written: 0 }]);
    expect(await source.query('SELECT count(*)::int AS n FROM note WHERE user_id = $1', [user])).toEqual([{ n: 0 }]);
    // A living user's write goes through.
    const other = randomUUID();
    const [row] = await source.query(
      `WITH living AS (SELECT living_user($1) AS alive),
            added AS (INSERT INTO note (user_id, body) SELECT $1, 'hello' FROM living WHERE alive RETURNING 1)
       SELECT living.alive, (SELECT count(*)::int FROM added) AS written FROM living`,
      [other],
    );
    expect(row).toEqual({ alive: true, written: 1 });
  });

  it('holds the purge back until a write in progress has committed', async () => {
    const user = randomUUID();
    const write = holding(source, (manager) => lockLivingUser(manager, user));
    await write.hasLock;
    const purge = source.transaction(async (manager) => {
      await lockUser(manager, user);
      await forgetUser(manager, user);
    });
    expect(await stillWaiting(purge)).toBe(true);
    write.release();
    await write.done;
    await purge;
  });

  it('still serialises the writes that take it alone (two memory merges for one user)', async () => {
    const user = randomUUID();
    const first = holding(source, (manager) => lockUser(manager, user));
    await first.hasLock;
    const second = source.transaction((manager) => lockUser(manager, user));
    expect(await stillWaiting(second)).toBe(true);
    first.release();
    await Promise.all([first.done, second]);
  });

  it('keeps different users apart', async () => {
    const first = holding(source, (manager) => lockUser(manager, randomUUID()));
    await first.hasLock;
    await source.transaction((manager) => lockUser(manager, randomUUID()));
    first.release();
    await first.done;
  });
});
