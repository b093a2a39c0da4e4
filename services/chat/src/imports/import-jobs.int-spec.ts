import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Caller, RpcContract } from '@app/contracts';
import { FILE_TRANSFER, FILES_RPC } from '@app/contracts/files';
import { Outbox, type AppLogger, type Bus, type RpcClient } from '@app/platform';
import {
  chatGptConversations,
  chatGptExportZip,
  claudeConversations,
  claudeExportZip,
  serviceDatabase,
  TINY_PNG,
  zipOf,
} from '@app/testing';
import type { ServiceDatabase } from '@app/testing';
import { chatEnvSchema } from '../config';
import { chatMigrations } from '../migrations';
import { ImportJobs } from './import-jobs';
import { ImportsRepository } from './imports.repository';
import { ImportsService } from './imports.service';

const LEASE_MS = 60_000;

/**
 * The files service as the import worker reaches it: the zip read back in chunks, attachments
 * stored through upload sessions (a test may act while one is stored: a cancel lands then), and
 * attachments discarded. What it holds at the end is what the user would keep.
 */
class FakeFiles {
  /** Stored attachments, by id. */
  readonly stored = new Map<string, { userId: string; filename: string }>();
  readonly discarded: string[] = [];
  begun = 0;
  /** Runs once a file is stored, before its answer: what happens meanwhile (a cancel) lands while the import stores it. */
  onStored: (objectId: string, count: number) => Promise<void> = async () => undefined;
  private readonly sessions = new Map<string, { userId: string; filename: string }>();
  private count = 0;

  constructor(private readonly zip: Buffer) {}

  filesOf(userId: string): string[] {
    return [...this.stored].filter(([, file]) => file.userId === userId).map(([id]) => id);
  }

  async call(contract: RpcContract, data: Record<string, unknown>, caller: Caller): Promise<unknown> {
    switch (contract.subject) {
      case FILES_RPC.uploadBegin.subject: {
        this.begun++;
        const id = randomUUID();
        this.sessions.set(id, { userId: caller.user_id!, filename: String(data.filename) });
        return { upload_id: id, chunk_bytes: FILE_TRANSFER.chunkBytes, max_bytes: 20 * 1024 * 1024 };
      }
      case FILES_RPC.uploadChunk.subject:
        return { received_bytes: 1 };
      case FILES_RPC.uploadCommit.subject: {
        const session = this.sessions.get(String(data.upload_id))!;
        this.sessions.delete(String(data.upload_id));
        const id = randomUUID();
        this.stored.set(id, session);
        await this.onStored(id, ++this.count);
        return { object_store_object_id: id, mime_type: 'image/png', filename: session.filename, size: 1 };
      }
      case FILES_RPC.uploadAbort.subject:
        return { aborted: this.sessions.delete(String(data.upload_id)) };
      case FILES_RPC.discardAttachments.subject: {
        const ids = data.object_store_object_ids as string[];
        this.discarded.push(...ids);
        let discarded = 0;
        for (const id of ids) if (this.stored.get(id)?.userId === caller.user_id && this.stored.delete(id)) discarded++;
        return { discarded };
      }
      case FILES_RPC.discardImport.subject:
        return { discarded: true };
      default:
        throw new Error(`Not a call of this test: ${contract.subject}`);
    }
  }

  async *stream(): AsyncGenerator<unknown> {
    yield { kind: 'head', content_type: 'application/zip', disposition: 'attachment', filename: 'export.zip', size: this.zip.length };
    for (let at = 0; at < this.zip.length; at += FILE_TRANSFER.chunkBytes)
      yield { kind: 'data', data: this.zip.subarray(at, at + FILE_TRANSFER.chunkBytes).toString('base64') };
  }
}

/** ChatGPT's branched conversation whose first question carries a second image (file-Img002) beside the hotel's. */
function withSecondImage(tag: string): unknown {
  const branched = chatGptConversations(tag)[0] as unknown as { mapping: Record<string, { message: { content: { parts: unknown[] } } }> };
  branched.mapping.u1!.message.content.parts.push({
    content_type: 'image_asset_pointer',
    asset_pointer: 'file-service://file-Img002',
    size_bytes: 70,
    width: 1,
    height: 1,
  });
  return branched;
}

const callerFor = (userId: string): Caller => ({ user_id: userId, is_anon: false, session_id: null, request_id: 'test' });

const zipWith = (conversations: unknown[]) =>
  zipOf({ 'conversations.json': JSON.stringify(conversations), 'file-Img001-hotel.png': TINY_PNG, 'file-Img002-map.png': TINY_PNG });

/**
 * The import worker (ImportJobs) against the real PostgreSQL, its files service faked: a cancel
 * that lands while a conversation's attachments are stored (its write refused: the job is over),
 * or another job that imports the conversation meanwhile, leaves no file behind that nothing
 * refers to.
 */
describe('the import worker on PostgreSQL, interrupted while it stores attachments', () => {
  let db: ServiceDatabase;
  let imports: ImportsRepository;
  let dir: string;
  const logged: string[] = [];
  const logger = {
    log: (line: { msg?: string }) => logged.push(String(line.msg)),
    warn: (line: { msg?: string }) => logged.push(String(line.msg)),
    error: (line: unknown) => logged.push(String(line)),
  } as unknown as AppLogger;

  beforeAll(async () => {
    db = await serviceDatabase({ label: 'importjobs', schema: 'chat', migrations: chatMigrations });
    imports = new ImportsRepository(db.source, new Outbox(db.source, {} as Bus, { warn: () => undefined, error: () => undefined }));
    dir = mkdtempSync(join(tmpdir(), 'import-jobs-'));
  });

  afterAll(async () => {
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A worker over the fake files service holding `zip`, and a job of a new user queued for it. */
  async function setup(zip: Buffer) {
    logged.length = 0;
    const files = new FakeFiles(zip);
    const config = { ...chatEnvSchema.parse({}), IMPORT_TMP_DIR: dir };
    const jobs = new ImportJobs(imports, files as unknown as Pick<RpcClient, 'call' | 'stream'>, config, logger);
    const userId = randomUUID();
    const id = randomUUID();
    await imports.insertJob({ id, userId, objectId: randomUUID(), filename: 'export.zip', requestedSource: 'auto', learnMemories: false });
    const claim = async () => {
      const job = await imports.claimJob(16, LEASE_MS);
      expect(job?.id).toBe(id);
      return job!;
    };
    /** The ids of the files the user's conversations refer to. */
    const referenced = async () => {
      const rows: { id: string }[] = await db.source.query(
        "SELECT f->>'object_store_object_id' AS id FROM message, jsonb_array_elements(metadata->'files') AS f WHERE user_id = $1",
        [userId],
      );
      return [...new Set(rows.map((row) => row.id))].sort();
    };
    const titles = async () =>
      (
        (await db.source.query('SELECT title FROM conversation WHERE user_id = $1 ORDER BY created_at', [userId])) as { title: string }[]
      ).map((row) => row.title);
    return { files, jobs, userId, id, claim, referenced, titles };
  }

  it('deletes the file stored for a conversation whose write a cancel through another replica refused', async () => {
    const { files, jobs, userId, id, claim, titles } = await setup(chatGptExportZip(chatGptConversations(`-${randomUUID()}`)));
    files.onStored = async () => void (await imports.cancelJob(userId, id));

    await jobs.run(await claim());

    expect((await imports.findJob(userId, id))?.status).toBe('cancelled');
    expect(await titles()).toEqual([]);
    expect(files.discarded).toHaveLength(1);
    expect(files.filesOf(userId)).toEqual([]);
  });

  it('deletes the file stored for a conversation another job imported meanwhile (its write is a no-op)', async () => {
    const tag = `-${randomUUID()}`;
    const { files, jobs, userId, id, claim, titles } = await setup(chatGptExportZip(chatGptConversations(tag)));
    // Another job of the same export (a guest's, moved to this account) writes it while its image is stored here.
    files.onStored = async () => {
      const chatId = randomUUID();
      await db.source.query("INSERT INTO conversation (id, user_id, title) VALUES ($1, $2, 'Imported elsewhere')", [chatId, userId]);
      await db.source.query(
        "INSERT INTO imported_conversation (user_id, source, source_id, chat_id, import_id) VALUES ($1, 'chatgpt', $2, $3, $4)",
        [userId, `cg-branched${tag}`, chatId, randomUUID()],
      );
    };

    await jobs.run(await claim());

    expect(await imports.findJob(userId, id)).toMatchObject({ status: 'done', conversations_imported: 1, conversations_existing: 1 });
    expect((await titles()).sort()).toEqual(['Imported elsewhere', 'Quick question']);
    expect(files.discarded).toHaveLength(1);
    expect(files.filesOf(userId)).toEqual([]);
  });

  it('keeps a file a written conversation refers to when a later one that shares it is refused, and deletes only the refused one’s own', async () => {
    const tag = randomUUID();
    const { files, jobs, userId, id, claim, referenced, titles } = await setup(
      zipWith([chatGptConversations(`-a${tag}`)[0], withSecondImage(`-b${tag}`)]),
    );
    // The first conversation stores the hotel's image; the second shares it and stores the map: the cancel lands then.
    files.onStored = async (_id, count) => void (count === 2 && (await imports.cancelJob(userId, id)));

    await jobs.run(await claim());

    expect(await titles()).toEqual(['Trip to Lisbon']);
    expect(files.begun).toBe(2);
    expect(files.discarded).toHaveLength(1);
    expect(files.filesOf(userId).sort()).toEqual(await referenced());
    expect(await referenced()).toHaveLength(1);
    expect((await imports.findJob(userId, id))?.conversations_imported).toBe(1);
  });

  it('stops storing the files of a conversation at once when it is cancelled through this replica, and deletes those stored', async () => {
    const { files, jobs, userId, id, titles } = await setup(zipWith([withSecondImage(`-${randomUUID()}`)]));
    files.onStored = async () => {
      await imports.cancelJob(userId, id);
      jobs.cancelled(id);
    };

    jobs.kick(); // claims the job and runs it, as its poll does
    for (const until = Date.now() + 10_000; !logged.includes('Import cancelled') && Date.now() < until;)
      await new Promise((resolve) => setTimeout(resolve, 20));
    await jobs.onApplicationShutdown();

    expect(logged).toContain('Import cancelled');
    expect(files.begun).toBe(1);
    expect(files.discarded).toHaveLength(1);
    expect(files.filesOf(userId)).toEqual([]);
    expect(await titles()).toEqual([]);
  });

  it('keeps the files of a write whose outcome is unknown held; the next run deletes them, then imports the conversation again', async () => {
    const { files, userId, id, claim, referenced, titles } = await setup(zipWith([withSecondImage(`-${randomUUID()}`)]));
    // The connection is lost as the conversation is written: it may have committed or not (here: not).
    const lost = Object.create(imports) as ImportsRepository;
    lost.writeConversation = () => Promise.reject(new Error('Connection terminated unexpectedly'));
    const config = { ...chatEnvSchema.parse({}), IMPORT_TMP_DIR: dir };
    await new ImportJobs(lost, files as unknown as Pick<RpcClient, 'call' | 'stream'>, config, logger).run(await claim());
    const firstRun = files.filesOf(userId);
    expect(firstRun).toHaveLength(2);
    expect((await imports.heldFiles(id)).sort()).toEqual([...firstRun].sort());
    expect(files.discarded).toEqual([]);
    expect((await imports.findJob(userId, id))?.status).toBe('queued');

    // The next run (any replica) deletes them first, then writes the conversation with its files stored again.
    await new ImportJobs(imports, files as unknown as Pick<RpcClient, 'call' | 'stream'>, config, logger).run(await claim());
    expect(await imports.findJob(userId, id)).toMatchObject({ status: 'done', conversations_imported: 1 });
    expect(await titles()).toEqual(['Trip to Lisbon']);
    expect(files.discarded.sort()).toEqual([...firstRun].sort());
    expect(files.filesOf(userId).sort()).toEqual(await referenced());
    expect(await referenced()).toHaveLength(2);
    expect(await imports.heldFiles(id)).toEqual([]);
  });

  it('a cancel deletes the files a run that died held, and a file it cannot delete stays held', async () => {
    const { files, jobs, userId, id, claim } = await setup(zipWith([withSecondImage(`-${randomUUID()}`)]));
    await claim(); // its worker dies while it holds two files
    const store = async (filename: string) => {
      const { upload_id } = (await files.call(FILES_RPC.uploadBegin, { filename }, callerFor(userId))) as { upload_id: string };
      return ((await files.call(FILES_RPC.uploadCommit, { upload_id }, callerFor(userId))) as { object_store_object_id: string })
        .object_store_object_id;
    };
    const held = [await store('a.png'), await store('b.png')].sort();
    for (const objectId of held) await imports.holdFile(id, objectId);
    const service = new ImportsService(imports, jobs, files as unknown as Pick<RpcClient, 'call'>, logger);

    // The files service is away: the cancel still answers, and the files stay held for later.
    const call = files.call.bind(files);
    files.call = (contract, data, caller) =>
      contract.subject === FILES_RPC.discardAttachments.subject ? Promise.reject(new Error('files away')) : call(contract, data, caller);
    expect((await service.cancel(callerFor(userId), id)).status).toBe('cancelled');
    expect((await imports.heldFiles(id)).sort()).toEqual(held);
    expect(logged).toContain('Could not delete the files of a conversation not imported');

    // Back: the worker's next poll deletes them, and the job holds nothing more.
    files.call = call;
    jobs.kick();
    for (const until = Date.now() + 10_000; (await imports.heldFiles(id)).length && Date.now() < until;)
      await new Promise((resolve) => setTimeout(resolve, 20));
    await jobs.onApplicationShutdown();
    expect(files.filesOf(userId)).toEqual([]);
    expect(files.discarded.sort()).toEqual(held);
    expect(await imports.heldFiles(id)).toEqual([]);
  });

  it('races a cancel against conversations being written: every file left is one a written conversation refers to', async () => {
    const conversations = Array.from({ length: 12 }, () => claudeConversations(`-${randomUUID()}`)).flat();
    const { files, jobs, userId, id, claim, referenced, titles } = await setup(claudeExportZip(conversations));
    // Fired, not awaited, as the fifth attachment is stored: the cancel's commit and that conversation's write race.
    let cancel: Promise<unknown> = Promise.resolve();
    files.onStored = async (_id, count) => {
      if (count === 5) cancel = imports.cancelJob(userId, id);
    };

    await jobs.run(await claim());
    await cancel;

    const job = await imports.findJob(userId, id);
    expect(job?.status).toBe('cancelled');
    expect((await titles()).length).toBe(job?.conversations_imported);
    expect(files.filesOf(userId).sort()).toEqual(await referenced());
    expect(files.begun).toBeGreaterThanOrEqual(5);
  });
});
