import { Injectable } from '@nestjs/common';
import { toSafeJson, toSafeText, type PayloadOf } from '@app/contracts';
import { CHAT_EVENTS, type ImportSkipped, type ImportSource, type ImportStatus } from '@app/contracts/chat';
import { ACCOUNT_DELETED, DomainError, lockLivingUser, Outbox } from '@app/platform';
import { DataSource } from 'typeorm';

export interface ImportJobRow {
  id: string;
  user_id: string;
  object_id: string;
  filename: string;
  requested_source: 'auto' | ImportSource;
  source: ImportSource | null;
  learn_memories: boolean;
  status: ImportStatus;
  conversations_total: number | null;
  conversations_done: number;
  conversations_imported: number;
  conversations_existing: number;
  messages_imported: number;
  attachments_imported: number;
  skipped: ImportSkipped[];
  skipped_total: number;
  error: string | null;
  attempts: number;
  created_at: Date;
  finished_at: Date | null;
}

/** The running counters of a job, written with each conversation (so a rerun continues from them). */
export type ImportProgress = Pick<
  ImportJobRow,
  | 'conversations_total'
  | 'conversations_done'
  | 'conversations_imported'
  | 'conversations_existing'
  | 'messages_imported'
  | 'attachments_imported'
  | 'skipped'
  | 'skipped_total'
  | 'source'
>;

/** A message as written: ids already chosen, parents before children. */
export interface NewImportedMessage {
  id: string;
  previousId: string | null;
  sender: string;
  content: string;
  metadata: Record<string, unknown>;
  createdAt: Date;
}

export interface NewImportedConversation {
  id: string;
  userId: string;
  title: string | null;
  createdAt: Date;
  lastMessageAt: Date | null;
  lastActiveMessageId: string | null;
  messages: NewImportedMessage[];
}

const JOB_COLUMNS = `id, user_id, object_id, filename, requested_source, source, learn_memories, status, conversations_total,
  conversations_done, conversations_imported, conversations_existing, messages_imported, attachments_imported, skipped,
  skipped_total, error, attempts, created_at, finished_at`;

const progressParams = (p: ImportProgress) => [
  p.conversations_total,
  p.conversations_done,
  p.conversations_imported,
  p.conversations_existing,
  p.messages_imported,
  p.attachments_imported,
  JSON.stringify(p.skipped),
  p.skipped_total,
  p.source,
];
/** SET clause for progressParams from $2. */
const PROGRESS_SET = `conversations_total = $2, conversations_done = $3, conversations_imported = $4, conversations_existing = $5,
  messages_imported = $6, attachments_imported = $7, skipped = $8::jsonb, skipped_total = $9, source = $10, updated_at = now()`;

/** A job that is not over: its worker may still write (a cancelled, done or failed job takes no more writes). */
const NOT_OVER = "status IN ('queued', 'running')";

/**
 * On a guest's sign-in to an account ($1 the account, $2 the guest): the guest's import under way is
 * stopped when the account has one too (one per user), before the guest's jobs move to the account.
 */
export const IMPORT_STOPPED_ON_MERGE = `UPDATE import_job
  SET status = 'cancelled', lease_until = NULL, finished_at = now(), updated_at = now(),
    error = 'It stopped when you signed in: your account had an import under way.'
  WHERE user_id = $2 AND ${NOT_OVER} AND EXISTS (SELECT 1 FROM import_job WHERE user_id = $1 AND ${NOT_OVER})`;

/** The job was cancelled by its user while its worker ran: the worker stops, writing nothing more. */
export class ImportCancelled extends Error {
  constructor() {
    super('The import was cancelled.');
  }
}

/** Rows of messages per INSERT (eight arrays of this length, one statement). */
const MESSAGE_BATCH = 2000;

/** The only place that touches the imports' tables (and writes imported conversations). */
@Injectable()
export class ImportsRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: Outbox,
  ) {}

  /** A new job; a 409 when the user has one queued or running (one at a time per user). */
  async insertJob(job: {
    id: string;
    userId: string;
    objectId: string;
    filename: string;
    requestedSource: string;
    learnMemories: boolean;
  }) {
    try {
      await this.dataSource.transaction(async (manager) => {
        await lockLivingUser(manager, job.userId);
        await manager.query(
          'INSERT INTO import_job (id, user_id, object_id, filename, requested_source, learn_memories) VALUES ($1, $2, $3, $4, $5, $6)',
          [job.id, job.userId, job.objectId, toSafeText(job.filename), job.requestedSource, job.learnMemories],
        );
      });
    } catch (error) {
      if ((error as { code?: string }).code === '23505')
        throw DomainError.conflict('An import is already under way. Wait for it to finish, then import again.');
      throw error;
    }
  }

  async findJob(userId: string, id: string): Promise<ImportJobRow | null> {
    const rows: ImportJobRow[] = await this.dataSource.query(`SELECT ${JOB_COLUMNS} FROM import_job WHERE id = $1 AND user_id = $2`, [
      id,
      userId,
    ]);
    return rows[0] ?? null;
  }

  listJobs(userId: string): Promise<ImportJobRow[]> {
    return this.dataSource.query(`SELECT ${JOB_COLUMNS} FROM import_job WHERE user_id = $1 ORDER BY created_at DESC LIMIT 50`, [userId]);
  }

  /**
   * Takes the oldest job waiting (queued, or running under a lease that lapsed: its worker died)
   * for this worker, when fewer than `limit` run across every replica; leased for `leaseMs`.
   */
  async claimJob(limit: number, leaseMs: number): Promise<ImportJobRow | null> {
    return this.dataSource.transaction(async (manager) => {
      // Claims queue behind each other (a lock for the transaction): each counts the running jobs
      // after the one before it committed, so replicas claiming at once cannot pass the limit.
      await manager.query("SELECT pg_advisory_xact_lock(hashtext('import_job:claim'))");
      // An UPDATE answers [rows, affected] through TypeORM's query().
      const [rows]: [ImportJobRow[], number] = await manager.query(
        `UPDATE import_job SET status = 'running', attempts = attempts + 1, updated_at = now(),
           lease_until = now() + make_interval(secs => $2)
         WHERE id = (
           SELECT id FROM import_job
           WHERE (status = 'queued' OR (status = 'running' AND lease_until < now()))
             AND (SELECT count(*) FROM import_job WHERE status = 'running' AND lease_until >= now()) < $1
           ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED
         )
         RETURNING ${JOB_COLUMNS}`,
        [limit, leaseMs / 1000],
      );
      return rows[0] ?? null;
    });
  }

  /** False when the job is no longer running (its user cancelled it). */
  async renewLease(id: string, leaseMs: number): Promise<boolean> {
    const [, affected]: [unknown, number] = await this.dataSource.query(
      "UPDATE import_job SET lease_until = now() + make_interval(secs => $2) WHERE id = $1 AND status = 'running'",
      [id, leaseMs / 1000],
    );
    return affected > 0;
  }

  /**
   * Cancels a job of the user that is not over: it is over at once (a worker running it stops
   * before its next write, and another import may start). Null when there is none such.
   */
  async cancelJob(userId: string, id: string): Promise<ImportJobRow | null> {
    const [rows]: [ImportJobRow[], number] = await this.dataSource.query(
      `UPDATE import_job SET status = 'cancelled', lease_until = NULL, finished_at = now(), updated_at = now()
       WHERE id = $1 AND user_id = $2 AND ${NOT_OVER}
       RETURNING ${JOB_COLUMNS}`,
      [id, userId],
    );
    return rows[0] ?? null;
  }

  /** Gives a job back (this process is stopping): another worker continues it. */
  async releaseJob(id: string): Promise<void> {
    await this.dataSource.query("UPDATE import_job SET status = 'queued', lease_until = NULL WHERE id = $1 AND status = 'running'", [id]);
  }

  /** Throws ImportCancelled when the job is over (its user cancelled it). */
  async saveProgress(id: string, progress: ImportProgress): Promise<void> {
    const [, affected]: [unknown, number] = await this.dataSource.query(
      `UPDATE import_job SET ${PROGRESS_SET} WHERE id = $1 AND ${NOT_OVER}`,
      [id, ...progressParams(progress)],
    );
    if (affected === 0) throw new ImportCancelled();
  }

  /** False when the job was over already (cancelled meanwhile): nothing is changed. */
  async finishJob(id: string, status: 'done' | 'failed', progress: ImportProgress, error: string | null): Promise<boolean> {
    const [, affected]: [unknown, number] = await this.dataSource.query(
      `UPDATE import_job SET ${PROGRESS_SET}, status = $11, error = $12, lease_until = NULL, finished_at = now()
       WHERE id = $1 AND ${NOT_OVER}`,
      [id, ...progressParams(progress), status, error],
    );
    return affected > 0;
  }

  /** Which of these conversations (by export id) the user has imported already, and by which job. */
  async importedAlready(userId: string, source: ImportSource, sourceIds: string[]): Promise<Map<string, string>> {
    if (!sourceIds.length) return new Map();
    const rows: { source_id: string; import_id: string }[] = await this.dataSource.query(
      'SELECT source_id, import_id FROM imported_conversation WHERE user_id = $1 AND source = $2 AND source_id = ANY($3::text[])',
      [userId, source, sourceIds],
    );
    return new Map(rows.map((r) => [r.source_id, r.import_id]));
  }

  /**
   * Writes one conversation in one transaction: its key first (a conversation imported meanwhile
   * makes this a no-op: false), the conversation, its messages in a few multi-row INSERTs, the
   * memory events asked for, and the job's counters. All or nothing: a job cancelled meanwhile
   * writes nothing (ImportCancelled; the cancel's row lock orders the two).
   */
  async writeConversation(input: {
    importId: string;
    source: ImportSource;
    sourceId: string;
    conversation: NewImportedConversation;
    exchanges: PayloadOf<typeof CHAT_EVENTS.exchangeCompleted>[];
    progress: ImportProgress;
  }): Promise<boolean> {
    const { conversation: c } = input;
    return this.dataSource.transaction(async (manager) => {
      // One statement: the account still lives (its lock taken shared, as lockLivingUser does), the
      // conversation, and its key (none when imported meanwhile by another job of the same export).
      const [row]: { alive: boolean; claimed: number }[] = await manager.query(
        `WITH living AS (
           SELECT living_user($2::uuid::text) AS alive
         ), conv AS (
           INSERT INTO conversation (id, user_id, title, last_message_at, last_active_message_id, created_at, updated_at)
           SELECT $1, $2, $3, $4, $6, $5, $5 FROM living WHERE alive
           RETURNING id
         ), claimed AS (
           INSERT INTO imported_conversation (user_id, source, source_id, chat_id, import_id)
           SELECT $2, $7, $8, conv.id, $9 FROM conv
           ON CONFLICT DO NOTHING RETURNING chat_id
         )
         SELECT living.alive, (SELECT count(*) FROM claimed)::int AS claimed FROM living`,
        [
          c.id,
          c.userId,
          c.title === null ? null : toSafeText(c.title),
          c.lastMessageAt,
          c.createdAt,
          c.lastActiveMessageId,
          input.source,
          input.sourceId,
          input.importId,
        ],
      );
      if (!row?.alive) throw DomainError.unauthorized(ACCOUNT_DELETED);
      if (row.claimed === 0) {
        // Imported meanwhile (another job of the same export): undo the conversation row.
        await manager.query('DELETE FROM conversation WHERE id = $1', [c.id]);
        return false;
      }
      for (let start = 0; start < c.messages.length; start += MESSAGE_BATCH) {
        const batch = c.messages.slice(start, start + MESSAGE_BATCH);
        await manager.query(
          `INSERT INTO message (id, chat_id, user_id, sender, content, previous_message_id, metadata, created_at, status)
           SELECT id, $1::uuid, $2::uuid, sender, content, previous_id, metadata, created_at, 'complete'
           FROM unnest($3::uuid[], $4::text[], $5::text[], $6::uuid[], $7::jsonb[], $8::timestamptz[])
             AS m(id, sender, content, previous_id, metadata, created_at)`,
          [
            c.id,
            c.userId,
            batch.map((m) => m.id),
            batch.map((m) => m.sender),
            batch.map((m) => toSafeText(m.content)),
            batch.map((m) => m.previousId),
            batch.map((m) => toSafeJson(m.metadata)),
            batch.map((m) => m.createdAt.toISOString()),
          ],
        );
      }
      for (const exchange of input.exchanges) {
        await this.outbox.enqueue(manager, CHAT_EVENTS.exchangeCompleted, exchange, { eventId: `import:${exchange.assistant_message_id}` });
      }
      // The files stored for it are referred to from now on: no longer held.
      const [, affected]: [unknown, number] = await manager.query(
        `UPDATE import_job SET ${PROGRESS_SET}, held_files = '{}' WHERE id = $1 AND ${NOT_OVER}`,
        [input.importId, ...progressParams(input.progress)],
      );
      if (affected === 0) throw new ImportCancelled();
      return true;
    });
  }

  /**
   * A file stored for the conversation being read, before anything refers to it: held on the job
   * until the conversation is written (which lets it go) or it is deleted (releaseFiles). A run that
   * dies in between leaves it there for the next run, or the cancel, to delete.
   */
  async holdFile(id: string, objectId: string): Promise<void> {
    await this.dataSource.query('UPDATE import_job SET held_files = array_append(held_files, $2) WHERE id = $1', [id, objectId]);
  }

  /** The files the job holds (stored for a conversation it has not written). */
  async heldFiles(id: string): Promise<string[]> {
    const [row]: { held_files: string[] }[] = await this.dataSource.query('SELECT held_files FROM import_job WHERE id = $1', [id]);
    return row?.held_files ?? [];
  }

  /** Jobs over (done, failed, cancelled) that still hold files: their delete failed, or came from a cancel on a merge. */
  jobsOverHoldingFiles(limit: number): Promise<{ id: string; user_id: string }[]> {
    return this.dataSource.query(
      `SELECT id, user_id FROM import_job WHERE held_files <> '{}' AND status IN ('done', 'failed', 'cancelled')
       ORDER BY updated_at LIMIT $1`,
      [limit],
    );
  }

  /** These files were deleted: the job no longer holds them. */
  async releaseFiles(id: string, objectIds: readonly string[]): Promise<void> {
    if (!objectIds.length) return;
    await this.dataSource.query(
      'UPDATE import_job SET held_files = ARRAY(SELECT f FROM unnest(held_files) AS f WHERE f <> ALL($2::text[])) WHERE id = $1',
      [id, objectIds],
    );
  }
}
