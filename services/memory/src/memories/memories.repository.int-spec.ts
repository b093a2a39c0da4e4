import { randomUUID } from 'node:crypto';
import { forgetUser } from '@app/platform';
import { serviceDatabase, type ServiceDatabase } from '@app/testing';
import type { MemoryFields } from '../extraction/merge-plan';
import { memoryMigrations } from '../migrations';
import { MemoriesRepository, type StoredMemory } from './memories.repository';
import { UserMemoryEntity } from './user-memory.entity';

/**
 * The memories' SQL against the real PostgreSQL: an extraction event is merged once however often
 * it comes, the merge sees the candidates it should (a LIKE that escapes the user's words), a
 * deleted account learns nothing, a removal can be undone within its window only, and no statement
 * reaches another user's memories.
 */
describe('MemoriesRepository on PostgreSQL', () => {
  let db: ServiceDatabase;
  let memories: MemoriesRepository;

  beforeAll(async () => {
    db = await serviceDatabase({ label: 'memories', schema: 'memory', entities: [UserMemoryEntity], migrations: memoryMigrations });
    memories = new MemoriesRepository(db.source);
  });

  afterAll(() => db?.drop());

  const fieldsOf = (text: string, subjectKey: string | null = null): MemoryFields => ({
    text,
    normalizedText: text.toLowerCase(),
    subjectKey,
    isInference: false,
    isFact: true,
    isConfirmed: true,
  });

  const source = { chatId: randomUUID(), messageId: randomUUID() };
  const addAll = (userId: string, texts: string[]) =>
    memories.merge(`event-${randomUUID()}`, userId, source, { subjects: [], texts: [] }, () => ({
      inserts: texts.map((t) => fieldsOf(t)),
      updates: [],
    }));

  it('applies an extraction event once, however often it is delivered', async () => {
    const userId = randomUUID();
    const eventId = `exchange:${randomUUID()}`;
    const plan = () => ({ inserts: [fieldsOf('Has a dog named Rex', 'pet')], updates: [] });

    expect(await memories.applied(eventId)).toBe(false);
    expect(await memories.merge(eventId, userId, source, { subjects: ['pet'], texts: [] }, plan)).toBe(true);
    // The redelivery, even when it skips the `applied` check, writes nothing.
    expect(await memories.merge(eventId, userId, source, { subjects: ['pet'], texts: [] }, plan)).toBe(false);
    expect(await memories.applied(eventId)).toBe(true);
    expect((await memories.list(userId)).map((m) => m.text)).toEqual(['Has a dog named Rex']);
  });

  it('records an exchange with nothing to learn once, and writes nothing for it', async () => {
    const userId = randomUUID();
    await addAll(userId, ['likes tea']);
    const eventId = `exchange:${randomUUID()}`;
    let asked: StoredMemory[] | undefined;
    const nothing = (candidates: StoredMemory[]) => {
      asked = candidates;
      return { inserts: [], updates: [] };
    };

    expect(await memories.merge(eventId, userId, source, { subjects: [], texts: [] }, nothing)).toBe(true);
    expect(asked).toEqual([]);
    expect(await memories.applied(eventId)).toBe(true);
    expect(await memories.merge(eventId, userId, source, { subjects: [], texts: [] }, nothing)).toBe(false);
    expect((await memories.list(userId)).map((m) => m.text)).toEqual(['likes tea']);
  });

  it('shows the merge the memories sharing a subject, a text, or saying more than a text, and escapes LIKE', async () => {
    const userId = randomUUID();
    await addAll(userId, ['has a dog named rex', 'likes 100% cotton', 'likes 1000 cotton shirts']);
    await memories.merge(`event-${randomUUID()}`, userId, source, { subjects: [], texts: [] }, () => ({
      inserts: [fieldsOf('lives in lisbon', 'home')],
      updates: [],
    }));
    let seen: StoredMemory[] = [];
    await memories.merge(
      `event-${randomUUID()}`,
      userId,
      source,
      { subjects: ['home'], texts: ['has a dog', 'likes 100%'] },
      (candidates) => {
        seen = candidates;
        return { inserts: [], updates: [] };
      },
    );
    // 'likes 100%' must match 'likes 100% cotton' only: an unescaped % would match 'likes 1000 ...'.
    expect(seen.map((m) => m.normalizedText).sort()).toEqual(['has a dog named rex', 'likes 100% cotton', 'lives in lisbon']);
  });

  it('updates a memory in place with its new source', async () => {
    const userId = randomUUID();
    await addAll(userId, ['works at acme']);
    const [memory] = await memories.list(userId);
    const later = { chatId: randomUUID(), messageId: randomUUID() };
    await memories.merge(`event-${randomUUID()}`, userId, later, { subjects: [], texts: ['works at acme'] }, ([found]) => ({
      inserts: [],
      updates: [{ id: found.id, fields: fieldsOf('Works at Acme as an engineer') }],
    }));
    expect(await memories.list(userId)).toEqual([
      expect.objectContaining({ id: memory.id, text: 'Works at Acme as an engineer', sourceChatId: later.chatId }),
    ]);
  });

  it('learns nothing for a deleted account, and records the event as applied', async () => {
    const userId = randomUUID();
    await db.source.transaction((manager) => forgetUser(manager, userId));
    expect(await addAll(userId, ['came back after the purge'])).toBe(true);
    expect(await memories.list(userId)).toEqual([]);
  });

  it('undoes a removal within its window only, and erases what is past it', async () => {
    const userId = randomUUID();
    await addAll(userId, ['plays the cello', 'speaks portuguese']);
    const [first, second] = await memories.list(userId);

    expect(await memories.remove(userId, first.id)).toBe('removed');
    expect(await memories.remove(userId, first.id)).toBe('already-removed');
    expect(await memories.remove(randomUUID(), first.id)).toBe('missing');
    expect((await memories.restore(userId, first.id, 60))?.id).toBe(first.id);

    await memories.remove(userId, second.id);
    await db.source.query("UPDATE user_memory SET removed_at = now() - interval '2 minutes' WHERE user_memory_id = $1", [second.id]);
    expect(await memories.restore(userId, second.id, 60)).toBeNull();
    expect(await memories.eraseRemoved(60)).toBeGreaterThanOrEqual(1);
    expect(await memories.remove(userId, second.id)).toBe('missing');
  });

  it("never changes, finds or lists another user's memory", async () => {
    const userId = randomUUID();
    const stranger = randomUUID();
    await addAll(userId, ['allergic to peanuts']);
    const [memory] = await memories.list(userId);

    expect(await memories.update(stranger, memory.id, { text: 'Not allergic' })).toBeNull();
    expect(await memories.restore(stranger, memory.id, 60)).toBeNull();
    expect(await memories.list(stranger)).toEqual([]);
    expect(await memories.known(stranger, ['peanuts'], 10, 10)).toEqual({ hits: [], latest: [] });
    expect(await memories.known(userId, ['peanuts'], 10, 10)).toEqual({
      hits: [{ id: memory.id, text: 'allergic to peanuts', subjectKey: memory.subjectKey }],
      latest: [{ id: memory.id, text: 'allergic to peanuts', subjectKey: memory.subjectKey }],
    });
    expect(await memories.update(userId, memory.id, { isConfirmed: false })).toMatchObject({
      isConfirmed: false,
      text: 'allergic to peanuts',
    });
  });
});
