import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import type { FileReference } from '@app/contracts/chat';
import { FILE_TRANSFER, FILES_RPC } from '@app/contracts/files';
import { AppLogger, DomainError, RpcCallError, RpcClient } from '@app/platform';
import type { LlmAttachment } from '../llm/llm-provider';

/** Files in the last messages are shown to the model; older ones stay in the history as words only. */
const ATTACHMENT_MESSAGES = 4;

/**
 * What the chat service asks of the files service: that attachments belong to the sender, what the
 * model should see of them, and a home for the images the model makes.
 */
@Injectable()
export class AttachmentsService {
  constructor(
    @Inject(RpcClient) private readonly rpc: Pick<RpcClient, 'call'>,
    @Inject(AppLogger) private readonly logger: Pick<AppLogger, 'warn'>,
  ) {}

  /** The caller's own files, with the types the files service found in their bytes (404 for anyone else's). */
  async verify(caller: Caller, files: FileReference[]): Promise<FileReference[]> {
    return Promise.all(
      files.map(async (file) => {
        try {
          const described = await this.rpc.call(FILES_RPC.describe, { object_store_object_id: file.object_store_object_id }, caller);
          return { object_store_object_id: described.object_store_object_id, mime_type: described.mime_type };
        } catch (error) {
          if (error instanceof RpcCallError && error.shape.status === 404)
            throw DomainError.notFound(`File not found: ${file.object_store_object_id}`);
          throw error;
        }
      }),
    );
  }

  /** The caller's own files by id, with the type and name the files service knows them by (404 for anyone else's). */
  async describeOwn(caller: Caller, ids: string[]): Promise<{ object_store_object_id: string; mime_type: string; filename: string }[]> {
    return Promise.all(
      ids.map(async (id) => {
        try {
          const described = await this.rpc.call(FILES_RPC.describe, { object_store_object_id: id }, caller);
          return { object_store_object_id: described.object_store_object_id, mime_type: described.mime_type, filename: described.filename };
        } catch (error) {
          if (error instanceof RpcCallError && error.shape.status === 404) throw DomainError.notFound(`File not found: ${id}`);
          throw error;
        }
      }),
    );
  }

  /** The model's view of each attachment of the most recent messages (by message id). */
  async forModel(caller: Caller, messages: { id: string; files: FileReference[] }[]): Promise<Map<string, LlmAttachment[]>> {
    const recent = messages.filter((m) => m.files.length).slice(-ATTACHMENT_MESSAGES);
    const result = new Map<string, LlmAttachment[]>();
    await Promise.all(
      recent.map(async (message) => {
        const parts = await Promise.all(
          message.files.map(async (file): Promise<LlmAttachment | null> => {
            try {
              const input = await this.rpc.call(FILES_RPC.readForModel, { object_store_object_id: file.object_store_object_id }, caller, {
                timeoutMs: 30_000,
              });
              return input.kind === 'image'
                ? { kind: 'image', filename: input.filename, dataUrl: input.data_url }
                : { kind: 'text', filename: input.filename, text: input.text, truncated: input.truncated };
            } catch (error) {
              this.logger.warn(
                { msg: 'An attachment could not be read for the model', file: file.object_store_object_id, error: String(error) },
                'Attachments',
              );
              return null;
            }
          }),
        );
        result.set(
          message.id,
          parts.filter((p): p is LlmAttachment => p !== null),
        );
      }),
    );
    return result;
  }

  /** Stores an image the model made, in one message when small, else as an upload in chunks. */
  async storeGenerated(caller: Caller, base64: string, mimeType: string): Promise<FileReference> {
    const filename = `generated-${new Date().toISOString().replace(/[:.]/g, '-')}.${mimeType === 'image/jpeg' ? 'jpg' : 'png'}`;
    if (base64.length <= FILE_TRANSFER.putBase64MaxChars) {
      const stored = await this.rpc.call(FILES_RPC.put, { data: base64, filename, declared_type: mimeType, source: 'generated' }, caller);
      return { object_store_object_id: stored.object_store_object_id, mime_type: stored.mime_type };
    }
    const bytes = Buffer.from(base64, 'base64');
    const session = await this.rpc.call(FILES_RPC.uploadBegin, { filename, declared_type: mimeType }, caller);
    try {
      for (let offset = 0, seq = 0; offset < bytes.length; offset += session.chunk_bytes, seq++) {
        const data = bytes.subarray(offset, offset + session.chunk_bytes).toString('base64');
        await this.rpc.call(FILES_RPC.uploadChunk, { upload_id: session.upload_id, seq, data }, caller);
      }
      const stored = await this.rpc.call(FILES_RPC.uploadCommit, { upload_id: session.upload_id }, caller);
      return { object_store_object_id: stored.object_store_object_id, mime_type: stored.mime_type };
    } catch (error) {
      await this.rpc.call(FILES_RPC.uploadAbort, { upload_id: session.upload_id }, caller).catch(() => undefined);
      throw error;
    }
  }
}
