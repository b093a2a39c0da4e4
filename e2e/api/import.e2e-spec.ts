import {
  chatGptConversations,
  chatGptExportZip,
  claudeConversations,
  claudeExportZip,
  hugeDeclaredEntryZip,
  TRANSPORTS,
  traversalZip,
  zipBomb,
  zipOf,
} from '@app/testing';
import { strFromU8, unzipSync } from 'fflate';
import { randomUUID } from 'node:crypto';
import { ApiClient, binary, eventually } from '../support/api-client';
import { startTestStack, type TestStack } from '../support/test-stack';

type Import = {
  import_id: string;
  status: string;
  source: string | null;
  conversations_total: number | null;
  conversations_imported: number;
  conversations_existing: number;
  messages_imported: number;
  attachments_imported: number;
  skipped: { kind: string; conversation: string | null; reason: string; count: number }[];
  skipped_total: number;
  error: string | null;
};
type Message = {
  message_id: string;
  content: string;
  sender: string;
  previous_message_id: string | null;
  created_at: string;
  metadata: { files: { mime_type: string }[] };
};

/**
 * Importing ChatGPT and Claude history end to end, as `npm start` runs it: the zip uploaded through
 * the gateway, the job run by the chat service, the result read back as ordinary conversations.
 */
describe.each(TRANSPORTS)('imports over the %s transport', (transport) => {
  let booted: TestStack;

  beforeAll(async () => {
    booted = await startTestStack('imports', transport, { RATE_LIMIT_PER_MINUTE: '5000' });
  });
  afterAll(async () => {
    await booted?.close();
  });

  const guest = async () => {
    const api = new ApiClient(booted.stack.url);
    await api.guest();
    return api;
  };
  const uploadZip = (api: ApiClient, bytes: Buffer, filename = 'export.zip') =>
    api.auth(api.http.post('/api/v1/imports/uploads')).attach('file', bytes, { filename, contentType: 'application/zip' });
  const finished = (api: ApiClient, id: string): Promise<Import> =>
    eventually(async () => {
      const body = (await api.get(`/api/v1/imports/${id}`).expect(200)).body as Import;
      return body.status === 'done' || body.status === 'failed' ? body : undefined;
    }, 60_000);
  /** Uploads a zip, imports it and waits for its end. */
  const importZip = async (api: ApiClient, bytes: Buffer, body: Record<string, unknown> = {}) => {
    const uploaded = await uploadZip(api, bytes).expect(201);
    const started = await api
      .post('/api/v1/imports/', { object_store_object_id: uploaded.body.object_store_object_id, ...body })
      .expect(202);
    expect(['queued', 'running']).toContain(started.body.status);
    return finished(api, started.body.import_id);
  };
  const conversations = async (api: ApiClient) =>
    (await api.get('/api/v1/chats/').expect(200)).body as { chat_id: string; conversation_title: string }[];
  const chat = async (api: ApiClient, title: string) => {
    const found = (await conversations(api)).find((c) => c.conversation_title === title);
    expect(found).toBeDefined();
    return (await api.get(`/api/v1/chats/${found!.chat_id}`).expect(200)).body as {
      last_active_message_id: string;
      created_at: string;
      messages: Message[];
    };
  };

  it('imports a ChatGPT export with its branches, dates and image, lists what it left out, and creates nothing twice', async () => {
    const api = await guest();
    const done = await importZip(api, chatGptExportZip());
    expect(done).toMatchObject({
      status: 'done',
      source: 'chatgpt',
      conversations_total: 2,
      conversations_imported: 2,
      messages_imported: 8,
      attachments_imported: 1,
      error: null,
    });
    expect(done.skipped.map((s) => s.reason)).toEqual(
      expect.arrayContaining(['Custom instructions (not a message)', 'Tool calls the model made', 'Tool output is not shown as a message']),
    );
    const trip = await chat(api, 'Trip to Lisbon');
    expect(trip.created_at).toBe('2025-06-01T10:00:00.000Z');
    const byContent = new Map(trip.messages.map((m) => [m.content, m]));
    const question = byContent.get('Plan a weekend in Lisbon, here is the hotel.')!;
    expect(question.metadata.files).toEqual([expect.objectContaining({ mime_type: 'image/png' })]);
    // The regenerated reply: two siblings; the edited follow-up: two siblings; the open branch is the edit.
    expect(byContent.get('Day one: Alfama.')!.previous_message_id).toBe(question.message_id);
    expect(byContent.get('Day one: Belém, then Alfama.')!.previous_message_id).toBe(question.message_id);
    expect(trip.last_active_message_id).toBe(byContent.get('Where should we eat?')!.message_id);
    expect(byContent.get('Where should we eat?')!.previous_message_id).toBe(byContent.get('Day one: Belém, then Alfama.')!.message_id);
    expect(byContent.get('Day one: Alfama.')!.created_at).toBe('2025-06-01T10:00:20.000Z');

    // The same export again: nothing new.
    const again = await importZip(api, chatGptExportZip());
    expect(again).toMatchObject({ status: 'done', conversations_imported: 0, conversations_existing: 2, messages_imported: 0 });
    expect(await conversations(api)).toHaveLength(2);
    // Listed, newest first.
    const listed = (await api.get('/api/v1/imports/').expect(200)).body as Import[];
    expect(listed.map((i) => i.import_id)).toEqual([again.import_id, done.import_id]);
  });

  it("imports a Claude export: branches, the newest leaf open, attachments' text kept, uploaded files listed", async () => {
    const api = await guest();
    const done = await importZip(api, claudeExportZip(), { source: 'claude' });
    expect(done).toMatchObject({
      status: 'done',
      source: 'claude',
      conversations_imported: 2,
      messages_imported: 7,
      attachments_imported: 1,
    });
    expect(done.skipped).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'attachment',
          conversation: 'Sourdough starter',
          reason: expect.stringContaining('not their bytes'),
        }),
      ]),
    );
    const sourdough = await chat(api, 'Sourdough starter');
    const byContent = new Map(sourdough.messages.map((m) => [m.content, m]));
    expect(sourdough.last_active_message_id).toBe(byContent.get('Once a day at room temperature.')!.message_id);
    expect(byContent.get('How do I feed my starter?')!.metadata.files).toEqual([expect.objectContaining({ mime_type: 'text/markdown' })]);
  });

  it('learns memories from imported conversations only when asked, each waiting for confirmation', async () => {
    const api = await guest();
    const [, plain] = chatGptConversations('-memory');
    const p1 = (plain!.mapping as Record<string, { message: { content: { parts: string[] } } | null }>).p1!;
    p1.message!.content.parts = ['I live in Porto. What is 2+2?'];
    await importZip(api, chatGptExportZip([plain]), { learn_memories: true });
    const memories = await eventually(async () => {
      const list = (await api.get('/api/v1/user_memory/').expect(200)).body as { text: string; is_confirmed: boolean }[];
      return list.length ? list : undefined;
    }, 30_000);
    expect(memories).toEqual([expect.objectContaining({ text: 'Lives in Porto', is_confirmed: false })]);
  });

  it('resumes a job whose worker died: what it committed is kept, not counted twice, and the rest is imported', async () => {
    const api = await guest();
    const first = await importZip(api, chatGptExportZip(chatGptConversations('-resume')));
    const userId = (await api.get('/api/v1/auth/me').expect(200)).body.user_id as string;
    // A second job of the same export "died" after committing "Trip to Lisbon": its row is running
    // under a lapsed lease, that conversation's key is its own, and "Quick question" was never written.
    const uploaded = await uploadZip(api, chatGptExportZip(chatGptConversations('-resume'))).expect(201);
    const died = randomUUID();
    await booted.db.query(
      `INSERT INTO chat.import_job (id, user_id, object_id, filename, requested_source, source, status, attempts, lease_until,
         conversations_total, conversations_imported, messages_imported, attachments_imported)
       VALUES ($1, $2, $3, 'export.zip', 'auto', 'chatgpt', 'running', 1, now() - interval '1 minute', 2, 1, 6, 1)`,
      [died, userId, uploaded.body.object_store_object_id],
    );
    await booted.db.query("UPDATE chat.imported_conversation SET import_id = $1 WHERE user_id = $2 AND source_id = 'cg-branched-resume'", [
      died,
      userId,
    ]);
    const quick = (await conversations(api)).find((c) => c.conversation_title === 'Quick question')!;
    await api.delete(`/api/v1/chats/${quick.chat_id}`).expect(204);
    // A worker takes it once its lease has lapsed, and finishes it.
    const resumed = await finished(api, died);
    expect(resumed).toMatchObject({ status: 'done', conversations_imported: 2, conversations_existing: 0, messages_imported: 8 });
    expect((await conversations(api)).map((c) => c.conversation_title).sort()).toEqual(['Quick question', 'Trip to Lisbon']);
    expect(first.status).toBe('done');
  });

  it("puts the imports and their keys in the user's export, and deletes them with the account", async () => {
    const api = await guest();
    const done = await importZip(api, claudeExportZip(claudeConversations('-export')));
    const zip = await binary(api.get('/api/v1/users/me/export')).expect(200);
    const chat = JSON.parse(strFromU8(unzipSync(new Uint8Array(zip.body as Buffer))['chat.json'])) as Record<
      string,
      Record<string, unknown>[]
    >;
    expect(chat.import_job).toEqual([expect.objectContaining({ id: done.import_id, status: 'done', conversations_imported: 2 })]);
    expect(chat.imported_conversation!.map((k) => k.source_id).sort()).toEqual(['cl-branched-export', 'cl-linear-export']);
    const userId = (await api.get('/api/v1/auth/me').expect(200)).body.user_id as string;
    await api.delete('/api/v1/users/me').expect(204);
    const left = await booted.db.query(
      'SELECT (SELECT count(*) FROM chat.import_job WHERE user_id = $1)::int + (SELECT count(*) FROM chat.imported_conversation WHERE user_id = $1)::int AS n',
      [userId],
    );
    expect(left.rows[0].n).toBe(0);
  });

  it.each([
    ['a zip bomb', () => zipBomb(), /zip bomb/],
    ['a path that climbs out', () => traversalZip(), /unsafe/],
    ['a 2 GB entry', () => hugeDeclaredEntryZip(), /too large/],
    ['invalid JSON', () => zipOf({ 'conversations.json': '[{"title": "x", "mapping": {' }), /not valid JSON|cut short/],
    ['no conversations.json', () => zipOf({ 'notes.txt': 'hello' }), /no conversations\.json/],
    ['a file of another kind', () => zipOf({ 'conversations.json': '{"hello": 1}' }), /not a list/],
    ['a list of something else', () => zipOf({ 'conversations.json': '[1, 2, 3]' }), /not an export/],
  ])('refuses %s with a clear message, writing nothing', async (_name, make, message) => {
    const api = await guest();
    const failed = await importZip(api, make());
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(message);
    expect(failed.conversations_imported).toBe(0);
    expect(await conversations(api)).toHaveLength(0);
  });

  it('cancels an import under way: nothing is written after the answer, what was imported stays, and another may start', async () => {
    const [owner, other] = [await guest(), await guest()];
    // Enough conversations (each with an image to store) that the import is still running when cancelled.
    const many = Array.from({ length: 150 }, (_, i) => chatGptConversations(`-cancel-${i}`)).flat();
    const uploaded = await uploadZip(owner, chatGptExportZip(many)).expect(201);
    const started = await owner.post('/api/v1/imports/', { object_store_object_id: uploaded.body.object_store_object_id }).expect(202);
    const id = started.body.import_id as string;
    await eventually(async () => {
      const now = (await owner.get(`/api/v1/imports/${id}`).expect(200)).body as Import;
      return now.status === 'running' && now.conversations_imported > 0 ? now : undefined;
    }, 60_000);
    expect((await other.post(`/api/v1/imports/${id}/cancel`, {}).expect(404)).body).toEqual({ detail: 'Import not found' });

    const cancelled = (await owner.post(`/api/v1/imports/${id}/cancel`, {}).expect(200)).body as Import;
    expect(cancelled).toMatchObject({ import_id: id, status: 'cancelled' });
    expect(cancelled.conversations_imported).toBeLessThan(300);
    // Again (a double click): the same answer, not an error.
    expect((await owner.post(`/api/v1/imports/${id}/cancel`, {}).expect(200)).body).toMatchObject({ status: 'cancelled' });
    // Another import may start at once, and runs to its end beside the cancelled one's worker.
    const next = await importZip(owner, claudeExportZip(claudeConversations('-after-cancel')));
    expect(next).toMatchObject({ status: 'done', conversations_imported: 2 });
    // What the cancelled import wrote before its answer stays, and nothing after it: its counters
    // (written in the same transaction as each conversation) are what the list holds.
    const titles = (await conversations(owner)).map((c) => c.conversation_title);
    expect(titles.filter((t) => t === 'Trip to Lisbon' || t === 'Quick question')).toHaveLength(cancelled.conversations_imported);
    // No attachment is left that no conversation refers to (those stored for a conversation the cancel refused are deleted).
    const ownerId = (await owner.get('/api/v1/auth/me').expect(200)).body.user_id as string;
    await eventually(async () => {
      const unreferenced = await booted.db.query(
        `SELECT f.id FROM files.file_object f WHERE f.user_id = $1 AND f.source = 'upload' AND NOT EXISTS (
           SELECT 1 FROM chat.message m
             CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(m.metadata->'files') = 'array' THEN m.metadata->'files' ELSE '[]'::jsonb END) AS r
           WHERE m.user_id = $1 AND r->>'object_store_object_id' = f.id::text)`,
        [ownerId],
      );
      return unreferenced.rows.length === 0 ? true : undefined;
    });
    expect((await owner.get(`/api/v1/imports/${id}`).expect(200)).body).toMatchObject({
      status: 'cancelled',
      conversations_imported: cancelled.conversations_imported,
    });
    // Its zip is deleted; a finished import cannot be cancelled; bad and made-up ids.
    await owner.get(`/api/v1/files/presigned/${uploaded.body.object_store_object_id}`).expect(404);
    const over = await owner.post(`/api/v1/imports/${next.import_id}/cancel`, {}).expect(409);
    expect(over.body.detail).toMatch(/over already/);
    await owner.post(`/api/v1/imports/${randomUUID()}/cancel`, {}).expect(404);
    await owner.post('/api/v1/imports/not-an-id/cancel', {}).expect(422);
  });

  it('counts once what a died run counted already when its job is resumed (skipped conversations, imported before)', async () => {
    const api = await guest();
    const [branched, plain] = chatGptConversations('-recount');
    const broken = { id: 'cg-broken-recount', title: 'Broken again', mapping: 'not a tree' };
    const userId = (await api.get('/api/v1/auth/me').expect(200)).body.user_id as string;
    // A job that died after reading the broken conversation (counted as skipped, saved) and writing the next one.
    await importZip(api, chatGptExportZip([branched]));
    const uploaded = await uploadZip(api, chatGptExportZip([broken, branched, plain])).expect(201);
    const died = randomUUID();
    const skipped = [{ kind: 'conversation', conversation: 'Broken again', reason: 'saved by the run that died', count: 1 }];
    await booted.db.query(
      `INSERT INTO chat.import_job (id, user_id, object_id, filename, requested_source, source, status, attempts, lease_until,
         conversations_total, conversations_done, conversations_existing, skipped, skipped_total)
       VALUES ($1, $2, $3, 'export.zip', 'auto', 'chatgpt', 'running', 1, now() - interval '1 minute', 3, 2, 1, $4::jsonb, 1)`,
      [died, userId, uploaded.body.object_store_object_id, JSON.stringify(skipped)],
    );
    const resumed = await finished(api, died);
    expect(resumed).toMatchObject({
      status: 'done',
      conversations_total: 3,
      conversations_imported: 1,
      conversations_existing: 1,
      skipped_total: 1,
      skipped,
    });
  });

  it('skips a conversation that does not fit its schema, with the reason, and imports the others', async () => {
    const api = await guest();
    const [branched, plain] = chatGptConversations('-schema');
    const broken = { id: 'cg-broken-schema', title: 'Broken one', mapping: 'not a tree' };
    const done = await importZip(api, chatGptExportZip([branched, broken, plain]));
    expect(done).toMatchObject({ status: 'done', conversations_total: 3, conversations_imported: 2 });
    expect(done.skipped).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'conversation', conversation: 'Broken one', reason: expect.stringContaining('mapping') }),
      ]),
    );
    expect((await conversations(api)).map((c) => c.conversation_title).sort()).toEqual(['Quick question', 'Trip to Lisbon']);
  });

  it('refuses an export of the other kind than the one asked for', async () => {
    const api = await guest();
    const failed = await importZip(api, chatGptExportZip(), { source: 'claude' });
    expect(failed).toMatchObject({ status: 'failed', error: 'This is an export of ChatGPT, not of Claude.' });
  });

  it("refuses what is not a zip, an attachment, someone else's upload and someone else's import", async () => {
    const [owner, other] = [await guest(), await guest()];
    const notZip = await uploadZip(owner, Buffer.from('just text'), 'export.zip').expect(415);
    expect(notZip.body.detail).toMatch(/not a zip/);
    const attachment = await owner
      .auth(owner.http.post('/api/v1/files/'))
      .attach('file', Buffer.from('hello'), { filename: 'a.txt', contentType: 'text/plain' })
      .expect(201);
    const refused = await owner.post('/api/v1/imports/', { object_store_object_id: attachment.body.object_store_object_id }).expect(415);
    expect(refused.body.detail).toMatch(/not uploaded as an export/);
    const uploaded = await uploadZip(owner, claudeExportZip()).expect(201);
    await other.post('/api/v1/imports/', { object_store_object_id: uploaded.body.object_store_object_id }).expect(404);
    const started = await owner.post('/api/v1/imports/', { object_store_object_id: uploaded.body.object_store_object_id }).expect(202);
    await other.get(`/api/v1/imports/${started.body.import_id}`).expect(404);
    expect((await other.get('/api/v1/imports/').expect(200)).body).toEqual([]);
    await owner.get(`/api/v1/imports/${randomUUID()}`).expect(404);
    await owner.get('/api/v1/imports/not-an-id').expect(422);
    await owner.post('/api/v1/imports/', { object_store_object_id: uploaded.body.object_store_object_id, source: 'gemini' }).expect(422);
    const done = await finished(owner, started.body.import_id);
    expect(done.status).toBe('done');
    // The zip is deleted once its import is over (just after its status says so).
    await eventually(async () =>
      (await owner.get(`/api/v1/files/presigned/${uploaded.body.object_store_object_id}`)).status === 404 ? true : undefined,
    );
  });
});
