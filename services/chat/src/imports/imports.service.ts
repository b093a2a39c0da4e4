import { API } from '@app/contracts/gateway';
import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import { IMPORT_RPC, type Import } from '@app/contracts/chat';
import { FILES_RPC } from '@app/contracts/files';
import { AppLogger, DomainError, RpcCallError, RpcClient, userIdOf } from '@app/platform';
import type { z } from 'zod';
import { randomUUID } from 'node:crypto';
import { ImportJobs } from './import-jobs';
import { ImportsRepository, type ImportJobRow } from './imports.repository';

export const IMPORT_NOT_FOUND = 'Import not found';
export const UPLOAD_NOT_FOUND = 'Uploaded zip not found. Upload the export again.';
export const IMPORT_OVER = 'This import is over already: there is nothing to cancel.';
export const NOT_AN_IMPORT_UPLOAD = `This file was not uploaded as an export to import: upload the zip through ${API.imports.upload.path}.`;

export function toImportView(row: ImportJobRow): Import {
  return {
    import_id: row.id,
    status: row.status,
    source: row.source,
    filename: row.filename,
    learn_memories: row.learn_memories,
    conversations_total: row.conversations_total,
    conversations_done: row.conversations_done,
    conversations_imported: row.conversations_imported,
    conversations_existing: row.conversations_existing,
    messages_imported: row.messages_imported,
    attachments_imported: row.attachments_imported,
    skipped: row.skipped,
    skipped_total: row.skipped_total,
    error: row.error,
    created_at: row.created_at.toISOString(),
    finished_at: row.finished_at?.toISOString() ?? null,
  };
}

/** Starting and following imports; the work itself is ImportJobs'. */
@Injectable()
export class ImportsService {
  constructor(
    private readonly repo: ImportsRepository,
    private readonly jobs: ImportJobs,
    @Inject(RpcClient) private readonly rpc: Pick<RpcClient, 'call'>,
    @Inject(AppLogger) private readonly logger: Pick<AppLogger, 'warn'>,
  ) {}

  async start(caller: Caller, input: z.output<typeof IMPORT_RPC.start.request>): Promise<Import> {
    const userId = userIdOf(caller);
    let described;
    try {
      described = await this.rpc.call(FILES_RPC.describe, { object_store_object_id: input.object_store_object_id }, caller);
    } catch (error) {
      if (error instanceof RpcCallError && error.shape.status === 404) throw DomainError.notFound(UPLOAD_NOT_FOUND);
      throw error;
    }
    if (described.source !== 'import') throw new DomainError('unsupported_media_type', NOT_AN_IMPORT_UPLOAD);
    const id = randomUUID();
    await this.repo.insertJob({
      id,
      userId,
      objectId: described.object_store_object_id,
      filename: described.filename,
      requestedSource: input.source,
      learnMemories: input.learn_memories,
    });
    this.jobs.kick();
    return this.get(caller, id);
  }

  async get(caller: Caller, importId: string): Promise<Import> {
    const row = await this.repo.findJob(userIdOf(caller), importId);
    if (!row) throw DomainError.notFound(IMPORT_NOT_FOUND);
    return toImportView(row);
  }

  /**
   * Stops an import that is not over: from this answer on, its worker (in whichever replica)
   * writes no conversation more; those written before stay. The zip is deleted at once. Cancelling
   * a cancelled import again answers it as it is (a double click, a retry); a finished one is a 409.
   */
  async cancel(caller: Caller, importId: string): Promise<Import> {
    const userId = userIdOf(caller);
    const cancelled = await this.repo.cancelJob(userId, importId);
    if (!cancelled) {
      const row = await this.repo.findJob(userId, importId);
      if (!row) throw DomainError.notFound(IMPORT_NOT_FOUND);
      if (row.status !== 'cancelled') throw DomainError.conflict(IMPORT_OVER);
      return toImportView(row);
    }
    this.jobs.cancelled(importId);
    // Files stored for a conversation it will not write (its worker may have died holding them).
    await this.jobs.discardHeld(cancelled);
    await this.rpc
      .call(FILES_RPC.discardImport, { object_store_object_id: cancelled.object_id }, caller)
      .catch((error: unknown) =>
        this.logger.warn({ msg: 'Could not delete the zip of a cancelled import', import_id: importId, error: String(error) }, 'Imports'),
      );
    return toImportView(cancelled);
  }

  async list(caller: Caller): Promise<Import[]> {
    return (await this.repo.listJobs(userIdOf(caller))).map(toImportView);
  }
}
