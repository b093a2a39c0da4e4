import { randomUUID } from 'node:crypto';
import { forgetUser, Outbox, type Bus } from '@app/platform';
import { serviceDatabase, type ServiceDatabase } from '@app/testing';
import { chatMigrations } from '../migrations';
import { ImportCancelled, ImportsRepository, type ImportProgress, type NewImportedConversation } from './imports.repository';

const log = { warn: () => undefined, error: () => undefined };
const LEASE_MS = 60_000;

const progress = (done = 1): ImportProgress => ({
  conversations_total: 2,
  conversations_done: done,
  conversations_imported: done,
  conversations_existing: 0,
  messages_imported: 2 * done,
  attachments_imported: 0,
  skipped: [],
  skipped_total: 0,
  source: 'chatgpt',
});

/**
 * The imports' SQL against the real PostgreSQL: one import at a time per user, a job claimed by one
 * worker under the global limit and taken over when its worker died, a conversation written once
 * whatever number of jobs import it, nothing written for a deleted account.
 */
describe('ImportsRepository on PostgreSQL', () => {
  let db: ServiceDatabase;
  let imports: ImportsRepository;

  beforeAll(async () => {
    db = await serviceDatabase({ label: 'imports', schema: 'chat', migrations: chatMigrations });
    imports = new ImportsRepository(db.source, new Outbox(db.source, {} as Bus, log));
  });

  afterAll(() => db?.drop());

  async function jobOf(userId = randomUUID()) {
    const id = randomUUID();
    await imports.insertJob({ id, userId, objectId: randomUUID(), filename: 'export.zip', requestedSource: 'auto', learnMemories: false });
    return { id, userId };
  }

  const conversationOf = (userId: string): NewImportedConversation => {
    const first = randomUUID();
    const reply = randomUUID();
    return {
      id: randomUUID(),
      userId,
      title: 'Trip to Lisbon',
      createdAt: new Date('2025-03-01T10:00:00Z'),
      lastMessageAt: new Date('2025-03-01T10:01:00Z'),
      lastActiveMessageId: reply,
      messages: [
        {
          id: first,
          previousId: null,
          sender: 'user',
          content: 'Where should I eat?',
          metadata: {},
          createdAt: new Date('2025-03-01T10:00:00Z'),
        },
        {
          id: reply,
          previousId: first,
          sender: 'assistant',
          content: 'Try Alfama.',
          metadata: {},
          createdAt: new Date('2025-03-01T10:01:00Z'),
        },
      ],
    };
  };

  it('keeps one import queued or running per user', async () => {
    const { userId, id } = await jobOf();
    await expect(jobOf(userId)).rejects.toMatchObject({ status: 409 });
    await imports.finishJob(id, 'done', progress(2), null);
    await expect(jobOf(userId)).resolves.toMatchObject({ userId });
  });

  it('lets one worker claim a job, under the global limit, and another take it over once its lease lapsed', async () => {
    await db.source.query('DELETE FROM import_job');
    const a = await jobOf();
    const b = await jobOf();

    const claims = await Promise.all([imports.claimJob(1, LEASE_MS), imports.claimJob(1, LEASE_MS), imports.claimJob(1, LEASE_MS)]);
    const claimed = claims.filter((job) => job !== null);
    expect(claimed).toHaveLength(1);
    expect(claimed[0]).toMatchObject({ id: a.id, status: 'running', attempts: 1 });
    // The limit is reached: b waits.
    expect(await imports.claimJob(1, LEASE_MS)).toBeNull();

    await db.source.query("UPDATE import_job SET lease_until = now() - interval '1 second' WHERE id = $1", [a.id]);
    expect(await imports.claimJob(1, LEASE_MS)).toMatchObject({ id: a.id, attempts: 2 });

    await imports.releaseJob(a.id);
    expect((await imports.findJob(a.userId, a.id))?.status).toBe('queued');
    await imports.finishJob(a.id, 'done', progress(2), null);
    expect(await imports.claimJob(1, LEASE_MS)).toMatchObject({ id: b.id });
    await imports.finishJob(b.id, 'failed', progress(0), 'This is not an export.');
    expect(await imports.findJob(b.userId, b.id)).toMatchObject({ status: 'failed', error: 'This is not an export.' });
    expect(await imports.findJob(randomUUID(), b.id)).toBeNull();
  });

  it('writes a conversation once, with its branches' + "' messages and events, however many jobs import it", async () => {
    const first = await jobOf();
    const conversation = conversationOf(first.userId);
    const exchange = {
      user_id: first.userId,
      chat_id: conversation.id,
      user_message_id: conversation.messages[0].id,
      assistant_message_id: conversation.messages[1].id,
      user_text: 'Where should I eat?',
      assistant_text: 'Try Alfama.',
    };
    const write = (importId: string, c: NewImportedConversation) =>
      imports.writeConversation({
        importId,
        source: 'chatgpt',
        sourceId: 'conv-1',
        conversation: c,
        exchanges: [exchange],
        progress: progress(),
      });

    expect(await write(first.id, conversation)).toBe(true);
    // The same export conversation again (a rerun, or a second job): nothing new.
    expect(await write(first.id, { ...conversationOf(first.userId) })).toBe(false);

    const conversations = (await db.source.query('SELECT id, last_active_message_id FROM conversation WHERE user_id = $1', [
      first.userId,
    ])) as {
      id: string;
      last_active_message_id: string;
    }[];
    expect(conversations).toEqual([{ id: conversation.id, last_active_message_id: conversation.messages[1].id }]);
    const messages = (await db.source.query('SELECT previous_message_id, status FROM message WHERE chat_id = $1 ORDER BY created_at', [
      conversation.id,
    ])) as { previous_message_id: string | null; status: string }[];
    expect(messages).toEqual([
      { previous_message_id: null, status: 'complete' },
      { previous_message_id: conversation.messages[0].id, status: 'complete' },
    ]);
    expect(await db.source.query('SELECT 1 FROM outbox WHERE event_id = $1', [`import:${exchange.assistant_message_id}`])).toHaveLength(1);
    expect((await imports.importedAlready(first.userId, 'chatgpt', ['conv-1', 'conv-2'])).get('conv-1')).toBe(first.id);
    expect((await imports.findJob(first.userId, first.id))?.conversations_done).toBe(1);
  });

  it('cancels a job that is not over, for its user only: its worker writes nothing more, and another import may start', async () => {
    await db.source.query('DELETE FROM import_job');
    const queued = await jobOf();
    expect(await imports.cancelJob(randomUUID(), queued.id)).toBeNull();
    expect(await imports.cancelJob(queued.userId, queued.id)).toMatchObject({ id: queued.id, status: 'cancelled' });
    expect(await imports.claimJob(2, LEASE_MS)).toBeNull();
    expect(await imports.cancelJob(queued.userId, queued.id)).toBeNull();
    const next = await jobOf(queued.userId);
    await imports.cancelJob(next.userId, next.id);

    const running = await jobOf();
    expect(await imports.claimJob(2, LEASE_MS)).toMatchObject({ id: running.id });
    expect(await imports.renewLease(running.id, LEASE_MS)).toBe(true);
    await imports.cancelJob(running.userId, running.id);
    // Its worker, at its next step: every write refused, the lease not renewed, the job not finished over the cancel.
    const conversation = conversationOf(running.userId);
    await expect(
      imports.writeConversation({
        importId: running.id,
        source: 'chatgpt',
        sourceId: 'c-x',
        conversation,
        exchanges: [],
        progress: progress(),
      }),
    ).rejects.toBeInstanceOf(ImportCancelled);
    expect(await db.source.query('SELECT 1 FROM conversation WHERE id = $1', [conversation.id])).toEqual([]);
    expect(await imports.importedAlready(running.userId, 'chatgpt', ['c-x'])).toEqual(new Map());
    await expect(imports.saveProgress(running.id, progress(2))).rejects.toBeInstanceOf(ImportCancelled);
    expect(await imports.renewLease(running.id, LEASE_MS)).toBe(false);
    expect(await imports.finishJob(running.id, 'done', progress(2), null)).toBe(false);
    await imports.releaseJob(running.id);
    expect(await imports.findJob(running.userId, running.id)).toMatchObject({ status: 'cancelled', conversations_done: 0 });
  });

  it('orders a cancel and a conversation being written: the write either lands before the cancel, counted, or not at all', async () => {
    const job = await jobOf();
    await imports.claimJob(16, LEASE_MS);
    const conversation = conversationOf(job.userId);
    const [written, cancelled] = await Promise.allSettled([
      imports.writeConversation({
        importId: job.id,
        source: 'claude',
        sourceId: 'c-race',
        conversation,
        exchanges: [],
        progress: progress(),
      }),
      imports.cancelJob(job.userId, job.id),
    ]);
    expect(cancelled).toMatchObject({ status: 'fulfilled', value: expect.objectContaining({ status: 'cancelled' }) });
    const stored = await db.source.query('SELECT 1 FROM conversation WHERE id = $1', [conversation.id]);
    const counted = (await imports.findJob(job.userId, job.id))!.conversations_imported;
    if (written.status === 'fulfilled') expect({ stored: stored.length, counted }).toEqual({ stored: 1, counted: 1 });
    else
      expect({ reason: written.reason instanceof ImportCancelled, stored: stored.length, counted }).toEqual({
        reason: true,
        stored: 0,
        counted: 0,
      });
  });

  it('writes nothing for an account deleted during the import', async () => {
    const job = await jobOf();
    await db.source.transaction((manager) => forgetUser(manager, job.userId));
    const conversation = conversationOf(job.userId);
    await expect(
      imports.writeConversation({ importId: job.id, source: 'claude', sourceId: 'c-1', conversation, exchanges: [], progress: progress() }),
    ).rejects.toMatchObject({ status: 401 });
    expect(await db.source.query('SELECT 1 FROM conversation WHERE id = $1', [conversation.id])).toEqual([]);
    expect(await imports.importedAlready(job.userId, 'claude', ['c-1'])).toEqual(new Map());
  });
});
