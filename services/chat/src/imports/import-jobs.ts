import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import { IMPORT_SKIPPED_LISTED, SENDER_ASSISTANT, SENDER_USER, type FileReference, type ImportSource } from '@app/contracts/chat';
import { FILES_RPC } from '@app/contracts/files';
import { AppLogger, RpcCallError, RpcClient, SERVICE_CONFIG, rechunk } from '@app/platform';
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ChatConfig } from '../config';
import { activeHistory } from '../conversations/views';
import { convert, detectSource, sourceIdOf } from './export-formats';
import { ExportZip, ImportRefused, jsonArrayElements } from './export-zip';
import type { ImportedAttachment, ImportedConversation, SkippedItem } from './imported-conversation';
import { ImportCancelled, ImportsRepository, type ImportJobRow, type ImportProgress, type NewImportedMessage } from './imports.repository';

const POLL_MS = 2_000;
const LEASE_MS = 60_000;
/** A job whose worker died this often is given up (failed), not retried forever. */
const MAX_ATTEMPTS = 3;
/** How often the progress of conversations that need no write (already imported, skipped) is saved. */
const PROGRESS_EVERY_MS = 500;
/** Exchanges per conversation given to memory extraction (the latest of the branch shown). */
const MEMORY_EXCHANGES = 10;
const DOWNLOAD_TIMEOUT_MS = 60_000;
/** Files deleted per call when a conversation is not written (the most `files.attachments.discard` takes). */
const DISCARD_BATCH = 100;
const TOO_LARGE = 'A file over the size limit of attachments';
/** Jobs over whose held files one poll deletes. */
const HELD_SWEEP_BATCH = 10;

type Config = Pick<
  ChatConfig,
  | 'IMPORT_CONCURRENCY'
  | 'IMPORT_MAX_ENTRIES'
  | 'IMPORT_MAX_UNCOMPRESSED_BYTES'
  | 'IMPORT_MAX_ENTRY_BYTES'
  | 'IMPORT_MAX_RATIO'
  | 'IMPORT_MAX_CONVERSATION_BYTES'
  | 'IMPORT_TMP_DIR'
>;

const SOURCE_NAME: Record<ImportSource, string> = { chatgpt: 'ChatGPT', claude: 'Claude' };

/** Stops a run between two conversations (this process is shutting down). */
class Stopping extends Error {}

/**
 * The import worker: takes queued jobs (and those whose worker died: their lease lapsed) up to
 * IMPORT_CONCURRENCY across every replica, one per user, and runs each:
 * 1. the zip is copied from the files service (streamed, in chunks) to a temporary file;
 * 2. its central directory is checked whole (ExportZip.open): a hostile zip is refused here;
 * 3. conversations.json is read once, streaming, to check it is valid JSON of one export and to
 *    count its conversations (the progress bar's total): a refused file writes nothing;
 * 4. it is read again, one conversation at a time: each one not imported before is converted, its
 *    attachments stored through the files service, and written in one transaction with its key
 *    and the job's counters (so a job that dies is rerun from where it was, duplicating nothing);
 *    the files stored for one that is not written (the job is over, it was imported meanwhile) are deleted.
 */
@Injectable()
export class ImportJobs implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;
  private readonly running = new Set<string>();
  /**
   * Jobs running here that must stop before their next conversation or chunk of their zip: their
   * user cancelled them through this process, or a lease renewal found them over (cancelled through
   * another replica). Others hear of a cancel at their next write.
   */
  private readonly stopAsked = new Set<string>();
  private stopping = false;
  private ticking: Promise<void> | null = null;

  constructor(
    private readonly repo: ImportsRepository,
    @Inject(RpcClient) private readonly rpc: Pick<RpcClient, 'call' | 'stream'>,
    @Inject(SERVICE_CONFIG) private readonly config: Config,
    private readonly logger: AppLogger,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.kick(), POLL_MS);
    this.timer.unref();
    this.kick();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    // Running jobs stop after their current conversation and are given back.
    for (let i = 0; i < 200 && this.running.size; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  }

  /**
   * A job was cancelled (its row says so already): if it runs here, it is asked to stop before its
   * next conversation or chunk of its zip rather than at its next write.
   */
  cancelled(id: string): void {
    if (this.running.has(id)) this.stopAsked.add(id);
  }

  /** Looks for work now (a job was just queued). */
  kick(): void {
    if (this.stopping || this.ticking) return;
    this.ticking = this.tick()
      .catch((error: unknown) => this.logger.warn({ msg: 'Import worker could not look for jobs', error: String(error) }, 'Imports'))
      .finally(() => (this.ticking = null));
  }

  private async tick(): Promise<void> {
    // Jobs over that still hold files (their delete failed, or a merge cancelled them): deleted now.
    for (const job of await this.repo.jobsOverHoldingFiles(HELD_SWEEP_BATCH)) await this.discardHeld(job);
    while (!this.stopping && this.running.size < this.config.IMPORT_CONCURRENCY) {
      const job = await this.repo.claimJob(this.config.IMPORT_CONCURRENCY, LEASE_MS);
      if (!job) return;
      this.running.add(job.id);
      void this.run(job).finally(() => {
        this.running.delete(job.id);
        this.stopAsked.delete(job.id);
        this.kick();
      });
    }
  }

  /** Runs one job to its end (done or failed), or gives it back when this process stops. */
  async run(job: ImportJobRow): Promise<void> {
    const progress: ImportProgress = {
      conversations_total: job.conversations_total,
      conversations_done: 0,
      conversations_imported: job.conversations_imported,
      conversations_existing: job.conversations_existing,
      messages_imported: job.messages_imported,
      attachments_imported: job.attachments_imported,
      skipped: [...job.skipped],
      skipped_total: job.skipped_total,
      source: job.source,
    };
    // A run of this job that died left the files it stored for a conversation it never wrote.
    await this.discardHeld(job);
    if (job.attempts > MAX_ATTEMPTS) {
      await this.finish(job, 'failed', progress, 'The import stopped several times before it could finish. Try again.');
      return;
    }
    const lease = setInterval(
      () =>
        void this.repo
          .renewLease(job.id, LEASE_MS)
          .then((running) => running || this.stopAsked.add(job.id))
          .catch(() => undefined),
      LEASE_MS / 4,
    );
    lease.unref();
    const halt = () => {
      if (this.stopAsked.has(job.id)) throw new ImportCancelled();
      if (this.stopping) throw new Stopping();
    };
    const dir = this.config.IMPORT_TMP_DIR ?? join(tmpdir(), 'assistant-imports');
    const path = join(dir, `${job.id}-${randomUUID()}.zip`);
    let zip: ExportZip | null = null;
    try {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await this.download(job, path, halt);
      zip = await ExportZip.open(path, {
        maxEntries: this.config.IMPORT_MAX_ENTRIES,
        maxUncompressedBytes: this.config.IMPORT_MAX_UNCOMPRESSED_BYTES,
        maxEntryBytes: this.config.IMPORT_MAX_ENTRY_BYTES,
        maxRatio: this.config.IMPORT_MAX_RATIO,
      });
      const entry = zip.conversationsEntry();
      if (!entry) throw new ImportRefused('This zip holds no conversations.json, so it is not an export of ChatGPT or Claude.');
      const elements = async () => jsonArrayElements(await entry.open(), this.config.IMPORT_MAX_CONVERSATION_BYTES);
      // Pass 1: the whole file is valid, of one known export; and how many conversations it holds.
      let total = 0;
      let source: ImportSource | null = null;
      for await (const element of await elements()) {
        if (total === 0) source = this.sourceOf(job, element);
        total++;
        if (total % 1000 === 0) halt();
      }
      progress.conversations_total = total;
      progress.source = source;
      await this.repo.saveProgress(job.id, progress);
      // Pass 2: each conversation, in its own transaction.
      if (source) await new ImportRun(job, source, zip, progress, this.repo, this.rpc, this.logger, halt).all(await elements());
      await this.finish(job, 'done', progress, null);
    } catch (error) {
      if (error instanceof ImportCancelled || this.stopAsked.has(job.id)) {
        // It is over: its user cancelled it (the zip is being deleted, which may be what failed here). Nothing more to do.
        this.logger.log({ msg: 'Import cancelled', import_id: job.id, imported: progress.conversations_imported }, 'Imports');
        return;
      }
      if (error instanceof Stopping) {
        await this.repo.releaseJob(job.id);
        return;
      }
      if (error instanceof ImportRefused) {
        await this.finish(job, 'failed', progress, error.message);
        return;
      }
      this.logger.error(error instanceof Error ? error : String(error), 'Imports');
      if (job.attempts >= MAX_ATTEMPTS) await this.finish(job, 'failed', progress, 'The import failed. Try again later.');
      else await this.repo.releaseJob(job.id);
    } finally {
      clearInterval(lease);
      zip?.close();
      await rm(path, { force: true });
    }
  }

  /**
   * Deletes the files a job holds (stored for a conversation it did not write: its run died, or it
   * was cancelled meanwhile). A failure is logged: they stay held, for the next run or cancel.
   */
  async discardHeld(job: Pick<ImportJobRow, 'id' | 'user_id'>): Promise<void> {
    try {
      const held = await this.repo.heldFiles(job.id);
      if (held.length) await discardFiles({ rpc: this.rpc, repo: this.repo, logger: this.logger }, job, held);
    } catch (error) {
      this.logger.warn({ msg: 'Could not read the files an import holds', import_id: job.id, error: String(error) }, 'Imports');
    }
  }

  private sourceOf(job: ImportJobRow, first: unknown): ImportSource {
    const detected = detectSource(first);
    if (!detected) throw new ImportRefused('conversations.json is not an export of ChatGPT or Claude.');
    if (job.requested_source !== 'auto' && job.requested_source !== detected)
      throw new ImportRefused(`This is an export of ${SOURCE_NAME[detected]}, not of ${SOURCE_NAME[job.requested_source]}.`);
    return detected;
  }

  /** The uploaded zip, from the files service to a temporary file, in chunks (never whole in memory). */
  private async download(job: ImportJobRow, path: string, halt: () => void): Promise<void> {
    const frames = this.rpc.stream(FILES_RPC.read, { object_store_object_id: job.object_id }, callerOf(job), {
      timeoutMs: DOWNLOAD_TIMEOUT_MS,
    });
    async function* bytes() {
      for await (const frame of frames) {
        halt();
        if (frame.kind === 'data') yield Buffer.from(frame.data, 'base64');
      }
    }
    try {
      await pipeline(Readable.from(bytes()), createWriteStream(path, { mode: 0o600 }));
    } catch (error) {
      if (error instanceof RpcCallError && error.shape.status === 404)
        throw new ImportRefused('The uploaded zip is gone (it may have been imported already). Upload it again.');
      throw error;
    }
  }

  private async finish(job: ImportJobRow, status: 'done' | 'failed', progress: ImportProgress, error: string | null): Promise<void> {
    // Cancelled meanwhile: its row says so, and its cancel deleted the zip already.
    if (!(await this.repo.finishJob(job.id, status, progress, error))) return;
    // The zip is not kept once its import is over (it may be a gigabyte).
    await this.rpc
      .call(FILES_RPC.discardImport, { object_store_object_id: job.object_id }, callerOf(job))
      .catch((e: unknown) => this.logger.warn({ msg: 'Could not delete an imported zip', import_id: job.id, error: String(e) }, 'Imports'));
    this.logger.log({ msg: 'Import finished', import_id: job.id, status, imported: progress.conversations_imported }, 'Imports');
  }
}

const callerOf = (job: Pick<ImportJobRow, 'id' | 'user_id'>): Caller => ({
  user_id: job.user_id,
  is_anon: false,
  session_id: null,
  request_id: `import:${job.id}`,
});

/**
 * Deletes files a job stored for a conversation it did not write, in batches, and lets each
 * deleted batch go from those the job holds. A batch that cannot be deleted is logged and stays
 * held (the next run, or a cancel, tries again): never a file that nothing refers to or knows of.
 */
async function discardFiles(
  deps: { rpc: Pick<RpcClient, 'call'>; repo: ImportsRepository; logger: Pick<AppLogger, 'warn'> },
  job: Pick<ImportJobRow, 'id' | 'user_id'>,
  objectIds: readonly string[],
): Promise<void> {
  for (let start = 0; start < objectIds.length; start += DISCARD_BATCH) {
    const ids = objectIds.slice(start, start + DISCARD_BATCH);
    try {
      await deps.rpc.call(FILES_RPC.discardAttachments, { object_store_object_ids: ids }, callerOf(job));
      await deps.repo.releaseFiles(job.id, ids);
    } catch (error) {
      deps.logger.warn(
        { msg: 'Could not delete the files of a conversation not imported', import_id: job.id, files: ids.length, error: String(error) },
        'Imports',
      );
    }
  }
}

/** Pass 2 of one job: its conversations, one at a time. */
class ImportRun {
  private readonly caller: Caller;
  /** Files stored by this run, by their id in the zip (one file may be in several messages). */
  private readonly stored = new Map<string, FileReference | string>();
  /**
   * Files stored for the conversation being read (not those it shares with one written before):
   * deleted when it is not written, so that no file is left that nothing refers to.
   */
  private fresh: { file: FileReference; zipId: string | null }[] = [];
  private savedAt = 0;
  /**
   * Conversations an earlier run of this job read and counted (its saved progress): a rerun reads
   * them again, but what they added to the counters (skipped, imported before) is there already.
   */
  private readonly counted: number;

  constructor(
    private readonly job: ImportJobRow,
    private readonly source: ImportSource,
    private readonly zip: ExportZip,
    private readonly progress: ImportProgress,
    private readonly repo: ImportsRepository,
    private readonly rpc: Pick<RpcClient, 'call'>,
    private readonly logger: Pick<AppLogger, 'warn'>,
    /** Throws when the run must stop (the job was cancelled, or this process is stopping). */
    private readonly halt: () => void,
  ) {
    this.caller = callerOf(job);
    this.counted = job.conversations_done;
  }

  async all(elements: AsyncIterable<unknown>): Promise<void> {
    for await (const element of elements) {
      this.halt();
      this.progress.conversations_done++;
      const written = await this.one(element);
      if (!written && Date.now() - this.savedAt > PROGRESS_EVERY_MS) {
        this.savedAt = Date.now();
        await this.repo.saveProgress(this.job.id, this.progress);
      }
    }
  }

  /** One conversation; true when it was written (its transaction saved the progress too). */
  private async one(element: unknown): Promise<boolean> {
    const title = titleOf(element);
    const sourceId = sourceIdOf(this.source, element);
    if (!sourceId) {
      this.skip(title, [{ kind: 'conversation', reason: 'A conversation without an id' }]);
      return false;
    }
    const already = (await this.repo.importedAlready(this.job.user_id, this.source, [sourceId])).get(sourceId);
    if (already) {
      // Imported by an earlier run of this very job (it was counted then), or by an earlier import.
      if (already !== this.job.id && !this.countedBefore()) this.progress.conversations_existing++;
      return false;
    }
    const converted = convert(this.source, element);
    if (!converted.ok) {
      this.skip(title, [{ kind: 'conversation', reason: converted.reason }]);
      return false;
    }
    const conversation = converted.conversation;
    if (conversation.messages.length === 0) {
      this.skip(conversation.title, [...conversation.skipped, { kind: 'conversation', reason: 'A conversation with no message to keep' }]);
      return false;
    }
    const skipped = [...conversation.skipped];
    this.fresh = [];
    let messages: NewImportedMessage[];
    let attachments: number;
    try {
      ({ messages, attachments } = await this.messagesOf(conversation, skipped));
    } catch (error) {
      // Stopped (cancelled, shutting down) or failed while storing its files: nothing refers to them.
      await this.discardFresh();
      throw error;
    }
    const ids = new Map(messages.map((m, i) => [conversation.messages[i]!.sourceId, m.id]));
    const chatId = randomUUID();
    const active = (conversation.activeSourceId && ids.get(conversation.activeSourceId)) || messages[messages.length - 1]!.id;
    const times = messages.map((m) => m.createdAt.getTime());
    const next = { ...this.progress, skipped: [...this.progress.skipped] };
    next.conversations_imported++;
    next.messages_imported += messages.length;
    next.attachments_imported += attachments;
    this.skipInto(next, conversation.title, skipped);
    let written: boolean;
    try {
      written = await this.repo.writeConversation({
        importId: this.job.id,
        source: this.source,
        sourceId,
        conversation: {
          id: chatId,
          userId: this.job.user_id,
          title: conversation.title,
          createdAt: conversation.createdAt ?? new Date(Math.min(...times)),
          lastMessageAt: new Date(Math.max(...times)),
          lastActiveMessageId: active,
          messages,
        },
        exchanges: this.job.learn_memories ? exchangesOf(this.job.user_id, chatId, messages, active) : [],
        progress: next,
      });
    } catch (error) {
      // Refused because the job is over (the cancel committed first): its transaction wrote nothing.
      // Any other failure may have come after the commit (a lost connection): the files are kept.
      if (error instanceof ImportCancelled) await this.discardFresh();
      throw error;
    }
    if (written) {
      this.fresh = [];
      Object.assign(this.progress, next);
    } else {
      // Imported meanwhile by another job: that one's files are those referred to.
      await this.discardFresh();
      this.progress.conversations_existing++;
    }
    return written;
  }

  /**
   * Deletes the files stored for the conversation being read, which was not written (a later
   * conversation that refers to one of them stores it again). A failure is logged: the files stay
   * held by the job, and its next run (or a cancel) deletes them.
   */
  private async discardFresh(): Promise<void> {
    const fresh = this.fresh.splice(0);
    for (const { zipId } of fresh) if (zipId) this.stored.delete(zipId);
    await discardFiles(
      { rpc: this.rpc, repo: this.repo, logger: this.logger },
      this.job,
      fresh.map(({ file }) => file.object_store_object_id),
    );
  }

  /** The messages as written: new ids, parents kept, times that never run backwards, files stored. */
  private async messagesOf(
    conversation: ImportedConversation,
    skipped: SkippedItem[],
  ): Promise<{ messages: NewImportedMessage[]; attachments: number }> {
    const base = conversation.createdAt ?? conversation.messages.find((m) => m.createdAt)?.createdAt ?? new Date();
    const written = new Map<string, NewImportedMessage>();
    const messages: NewImportedMessage[] = [];
    let attachments = 0;
    for (const message of conversation.messages) {
      const parent = message.parentSourceId ? (written.get(message.parentSourceId) ?? null) : null;
      const floor = parent ? parent.createdAt.getTime() + 1 : 0;
      const at = Math.max(message.createdAt?.getTime() ?? (parent ? floor : base.getTime()), floor);
      const files: FileReference[] = [];
      for (const attachment of message.attachments) {
        // A cancel heard here stops storing files for a conversation that will not be written.
        this.halt();
        const stored = await this.storeAttachment(attachment);
        if (typeof stored === 'string') skipped.push({ kind: 'attachment', reason: stored });
        else {
          files.push(stored);
          attachments++;
        }
      }
      const row: NewImportedMessage = {
        id: randomUUID(),
        previousId: parent?.id ?? null,
        sender: message.sender === 'user' ? SENDER_USER : SENDER_ASSISTANT,
        content: message.content,
        metadata: { files, imported_from: this.source, ...(message.model ? { model: message.model } : {}) },
        createdAt: new Date(at),
      };
      written.set(message.sourceId, row);
      messages.push(row);
    }
    return { messages, attachments };
  }

  /** Stores one attachment through the files service; the reason when it cannot be. */
  private async storeAttachment(attachment: ImportedAttachment): Promise<FileReference | string> {
    const key = attachment.kind === 'zip' ? attachment.fileId : null;
    const known = key ? this.stored.get(key) : undefined;
    if (known) return known;
    let result: FileReference | string;
    if (attachment.kind === 'zip') {
      const file = this.zip.fileById(attachment.fileId);
      result = file
        ? await this.upload(attachment.name ?? file.name, file.size, async () => (await file.open()) as AsyncIterable<Buffer>)
        : 'A file the conversation refers to is not in the zip';
    } else {
      const bytes = Buffer.from(attachment.text, 'utf8');
      result = await this.upload(attachment.name, bytes.length, async () => Readable.from([bytes]) as AsyncIterable<Buffer>);
    }
    if (key) this.stored.set(key, result);
    if (typeof result !== 'string') {
      this.fresh.push({ file: result, zipId: key });
      // Held on the job before anything else is done: should this process die before the
      // conversation is written, the next run deletes it (a failure here discards it at once).
      await this.repo.holdFile(this.job.id, result.object_store_object_id);
    }
    return result;
  }

  private async upload(filename: string, size: number, open: () => Promise<AsyncIterable<Buffer>>): Promise<FileReference | string> {
    const session = await this.rpc.call(FILES_RPC.uploadBegin, { filename: filename.slice(0, 255), declared_type: null }, this.caller);
    try {
      if (size > session.max_bytes) {
        await this.rpc.call(FILES_RPC.uploadAbort, { upload_id: session.upload_id }, this.caller).catch(() => undefined);
        return TOO_LARGE;
      }
      let seq = 0;
      for await (const chunk of rechunk(await open(), session.chunk_bytes)) {
        await this.rpc.call(
          FILES_RPC.uploadChunk,
          { upload_id: session.upload_id, seq: seq++, data: chunk.toString('base64') },
          this.caller,
        );
      }
      const stored = await this.rpc.call(FILES_RPC.uploadCommit, { upload_id: session.upload_id }, this.caller, { timeoutMs: 60_000 });
      return { object_store_object_id: stored.object_store_object_id, mime_type: stored.mime_type };
    } catch (error) {
      await this.rpc.call(FILES_RPC.uploadAbort, { upload_id: session.upload_id }, this.caller).catch(() => undefined);
      const status = error instanceof RpcCallError ? error.shape.status : 0;
      if (status === 413) return TOO_LARGE;
      if (status === 415) return 'A file of a type attachments cannot be (images, PDFs and text only)';
      if (status === 400) return 'An empty file';
      throw error;
    }
  }

  private skip(title: string | null, items: SkippedItem[]): void {
    if (!this.countedBefore()) this.skipInto(this.progress, title, items);
  }

  /** The conversation being read was counted by an earlier run of this job. */
  private countedBefore(): boolean {
    return this.progress.conversations_done <= this.counted;
  }

  /** Adds the items, one line per kind and reason of a conversation, up to IMPORT_SKIPPED_LISTED lines. */
  private skipInto(progress: ImportProgress, title: string | null, items: SkippedItem[]): void {
    const lines = new Map<string, { kind: SkippedItem['kind']; reason: string; count: number }>();
    for (const item of items) {
      const key = `${item.kind}\u0000${item.reason}`;
      const line = lines.get(key) ?? { kind: item.kind, reason: item.reason, count: 0 };
      line.count++;
      lines.set(key, line);
    }
    for (const line of lines.values()) {
      progress.skipped_total += line.count;
      if (progress.skipped.length < IMPORT_SKIPPED_LISTED)
        progress.skipped.push({
          kind: line.kind,
          conversation: title?.slice(0, 200) ?? null,
          reason: line.reason.slice(0, 300),
          count: line.count,
        });
    }
  }
}

function titleOf(element: unknown): string | null {
  if (!element || typeof element !== 'object') return null;
  const record = element as Record<string, unknown>;
  const title = record.title ?? record.name;
  return typeof title === 'string' && title.trim() ? title.trim() : null;
}

/** The latest exchanges of the branch shown (a user message and the reply to it), for memory extraction. */
function exchangesOf(userId: string, chatId: string, messages: NewImportedMessage[], activeId: string) {
  const path = activeHistory(
    messages.map((m) => ({ ...m, previousMessageId: m.previousId })),
    activeId,
  );
  const exchanges = [];
  for (let i = 1; i < path.length; i++) {
    const [question, answer] = [path[i - 1]!, path[i]!];
    if (question.sender === SENDER_USER && answer.sender === SENDER_ASSISTANT && question.content && answer.content)
      exchanges.push({
        user_id: userId,
        chat_id: chatId,
        user_message_id: question.id,
        assistant_message_id: answer.id,
        user_text: question.content,
        assistant_text: answer.content,
        unconfirmed: true,
      });
  }
  return exchanges.slice(-MEMORY_EXCHANGES);
}
