import { randomUUID } from 'node:crypto';
import { forgetUser } from '@app/platform';
import { serviceDatabase, type ServiceDatabase } from '@app/testing';
import { filesMigrations } from '../migrations';
import { UploadSessionEntity } from '../uploads/upload-session.entity';
import { FileObjectEntity } from './file-object.entity';
import { FilesRepository } from './files.repository';

/**
 * The files' SQL against the real PostgreSQL: an upload's chunks advance one at a time in order
 * (a replayed or skipped chunk changes nothing), one caller closes and one commits a session, the
 * signed links' key is one for every replica, and nothing starts for a deleted account.
 */
describe('FilesRepository on PostgreSQL', () => {
  let db: ServiceDatabase;
  let files: FilesRepository;

  beforeAll(async () => {
    db = await serviceDatabase({
      label: 'filesrepo',
      schema: 'files',
      entities: [FileObjectEntity, UploadSessionEntity],
      migrations: filesMigrations,
    });
    files = new FilesRepository(db.source);
  });

  afterAll(() => db?.drop());

  async function sessionOf(userId = randomUUID()) {
    const id = randomUUID();
    await files.insertSession({ id, userId, filename: 'notes.txt', declaredType: 'text/plain', source: 'upload' });
    return { id, userId };
  }

  it('advances an upload chunk by chunk, in order only, and records the first sniffed type', async () => {
    const { id, userId } = await sessionOf();

    expect(await files.advanceSession(id, userId, 0, 100, 'text/plain')).toMatchObject({
      nextSeq: 1,
      receivedBytes: 100,
      mimeType: 'text/plain',
    });
    // The same chunk again (a retry), a skipped one, or another user's: nothing changes.
    expect(await files.advanceSession(id, userId, 0, 100, null)).toBeNull();
    expect(await files.advanceSession(id, userId, 2, 100, null)).toBeNull();
    expect(await files.advanceSession(id, randomUUID(), 1, 100, null)).toBeNull();
    expect(await files.advanceSession(id, userId, 1, 50, 'image/png')).toMatchObject({
      nextSeq: 2,
      receivedBytes: 150,
      mimeType: 'text/plain',
    });
  });

  it('closes a session once, at the count of parts it holds, and lets one caller delete it', async () => {
    const { id, userId } = await sessionOf();
    await files.advanceSession(id, userId, 0, 10, null);
    await files.advanceSession(id, userId, 1, 10, null);

    expect(await files.closeSession(id, userId, 1)).toBe(false);
    const closes = await Promise.all([files.closeSession(id, userId, 2), files.closeSession(id, userId, 2)]);
    expect(closes.filter(Boolean)).toHaveLength(1);
    // Closed: no chunk may follow.
    expect(await files.advanceSession(id, userId, 2, 10, null)).toBeNull();

    const deletes = await Promise.all([files.deleteSession(id), files.deleteSession(id)]);
    expect(deletes.filter(Boolean)).toHaveLength(1);
    expect(await files.findSession(id, userId)).toBeNull();
  });

  it('counts and lists a user’s open uploads only, and finds the idle ones', async () => {
    const userId = randomUUID();
    const a = await sessionOf(userId);
    await sessionOf(userId);
    await sessionOf();

    expect(await files.openSessionCount(userId)).toBe(2);
    expect((await files.sessionsOf(userId)).map((s) => s.userId)).toEqual([userId, userId]);
    expect(await files.findSession(a.id, randomUUID())).toBeNull();
    await db.source.query("UPDATE upload_session SET updated_at = now() - interval '2 hours' WHERE id = $1", [a.id]);
    const idle = await files.sessionsIdleSince(new Date(Date.now() - 3_600_000));
    expect(idle.map((s) => s.id)).toEqual([a.id]);
  });

  it('starts no upload for an account that was deleted', async () => {
    const userId = randomUUID();
    await db.source.transaction((manager) => forgetUser(manager, userId));
    await expect(sessionOf(userId)).rejects.toMatchObject({ status: 401 });
    expect(await files.openSessionCount(userId)).toBe(0);
  });

  it('keeps a file’s derived objects once each', async () => {
    const userId = randomUUID();
    const file = await files.insertFile({
      id: randomUUID(),
      userId,
      filename: 'cat.png',
      source: 'upload',
      mimeType: 'image/png',
      size: 1234,
      sha256: 'a'.repeat(64),
      storageKey: `files/${userId}/cat`,
    });
    await Promise.all([files.addDerivedKey(file.id, 'preview-256'), files.addDerivedKey(file.id, 'preview-256')]);
    await files.addDerivedKey(file.id, 'text');

    expect((await files.findFile(file.id))?.derivedKeys).toEqual(['preview-256', 'text']);
    expect((await files.filesOf(userId)).map((f) => f.size)).toEqual([1234]);
    expect(await files.filesOf(randomUUID())).toEqual([]);
  });

  it('makes the signed links’ key once, shared by every replica', async () => {
    const replicas = [new FilesRepository(db.source), new FilesRepository(db.source), files];
    const secrets = await Promise.all(replicas.map((r) => r.signingSecret()));
    expect(new Set(secrets).size).toBe(1);
    expect(secrets[0]).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
