import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import {
  FILE_TRANSFER,
  SHARED_FILE_ACCESS,
  type FileChunk,
  type FileDescription,
  type ModelInput,
  type PresignedFile,
} from '@app/contracts/files';
import {
  AppLogger,
  DomainError,
  observeGenerator,
  RpcCallError,
  RpcClient,
  SERVICE_CONFIG,
  rechunk,
  userIdOf,
  type UserDataPurgeHook,
  type PublicOf,
} from '@app/platform';
import type { Observable } from 'rxjs';
import type { FilesConfig } from '../config';
import { OBJECT_STORE, type ObjectStore } from '../store/object-store';
import { UploadsService } from '../uploads/uploads.service';
import { servingOf } from './content-sniffer';
import { DerivedContentService } from './derived-content.service';
import { FilesRepository, type FileRecord } from './files.repository';
import { checkViewSignature, signView, viewUrl } from './signed-urls';

export const FILE_NOT_FOUND = 'File not found';
export const LINK_EXPIRED = 'This link has expired. Open the file again from the conversation.';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Seconds since the epoch (signed links count in seconds). */
export const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Stored files as their owner (and no one else) sees them: descriptions, signed links with
 * previews, bodies streamed in chunks, the model's view of them; and their removal with the account.
 * Another user's file is simply not found (404), never "forbidden": ids reveal nothing.
 */
@Injectable()
export class FilesService implements UserDataPurgeHook {
  constructor(
    @Inject(FilesRepository) private readonly store: PublicOf<FilesRepository>,
    @Inject(OBJECT_STORE) private readonly objects: ObjectStore,
    @Inject(SERVICE_CONFIG) private readonly config: FilesConfig,
    private readonly derived: DerivedContentService,
    private readonly uploads: UploadsService,
    private readonly rpc: RpcClient,
    private readonly logger: AppLogger,
  ) {}

  async describe(caller: Caller, objectId: string): Promise<FileDescription> {
    const file = await this.owned(caller, objectId);
    return {
      object_store_object_id: file.id,
      mime_type: file.mimeType,
      filename: file.filename,
      size: file.size,
      source: file.source,
      created_at: file.createdAt.toISOString(),
    };
  }

  async presign(
    caller: Caller,
    input: { object_store_object_id: string; preview_resolution: number; share_id?: string },
  ): Promise<PresignedFile> {
    const file = input.share_id
      ? await this.throughShare(caller, input.object_store_object_id, input.share_id)
      : await this.owned(caller, input.object_store_object_id);
    const expires = nowSeconds() + this.config.FILES_SIGNED_URL_TTL_SECONDS;
    const signature = signView(await this.secret(), { objectId: file.id, ownerId: file.userId, expires });
    let preview: string | null = null;
    try {
      preview = await this.derived.preview(file, input.preview_resolution);
    } catch (error) {
      // The link matters more than the thumbnail: a store hiccup on the preview costs only the preview.
      this.logger.warn(
        { msg: 'Preview failed', object_id: file.id, error: error instanceof Error ? error.message : String(error) },
        'Files',
      );
    }
    return { presigned_url: viewUrl(file.id, expires, signature), preview_data_url: preview, filename: file.filename };
  }

  /**
   * A file's body as frames: the head (type, disposition, name, size), then the bytes in chunks of
   * at most FILE_TRANSFER.chunkBytes. Its owner may read it; anyone else needs a valid signed link.
   */
  read(caller: Caller, input: { object_store_object_id: string; expires?: number; signature?: string }): Observable<FileChunk> {
    return observeGenerator(() => this.frames(caller, input));
  }

  private async *frames(
    caller: Caller,
    input: { object_store_object_id: string; expires?: number; signature?: string },
  ): AsyncGenerator<FileChunk> {
    const file = await this.readable(caller, input);
    const serving = servingOf(file.mimeType, file.filename);
    yield { kind: 'head', content_type: serving.contentType, disposition: serving.disposition, filename: file.filename, size: file.size };
    const body = await this.objects.get(file.storageKey);
    try {
      for await (const chunk of rechunk(body, FILE_TRANSFER.chunkBytes)) yield { kind: 'data', data: chunk.toString('base64') };
    } finally {
      body.destroy();
    }
  }

  async readForModel(
    caller: Caller,
    input: { object_store_object_id: string; max_image_px: number; max_text_chars: number },
  ): Promise<ModelInput> {
    return this.derived.forModel(await this.owned(caller, input.object_store_object_id), input);
  }

  /** An export zip whose import is over: its object and row go (other files are not this call's: 404). */
  async discardImport(caller: Caller, objectId: string): Promise<{ discarded: boolean }> {
    const file = UUID.test(objectId) ? await this.store.findFile(objectId) : null;
    if (!file) return { discarded: false };
    if (file.userId !== userIdOf(caller) || file.source !== 'import') throw DomainError.notFound(FILE_NOT_FOUND);
    return { discarded: await this.discard(file) };
  }

  /**
   * Attachments stored for something that was never written (an import's conversation refused
   * because its job was over): their objects and rows go. Only the caller's uploads: anything else
   * (another user's file, a generated image, an export zip, an id gone or not one) is left alone.
   */
  async discardAttachments(caller: Caller, objectIds: readonly string[]): Promise<{ discarded: number }> {
    const userId = userIdOf(caller);
    let discarded = 0;
    for (const objectId of new Set(objectIds)) {
      const file = UUID.test(objectId) ? await this.store.findFile(objectId) : null;
      if (!file || file.userId !== userId || file.source !== 'upload') continue;
      if (await this.discard(file)) discarded++;
    }
    return { discarded };
  }

  /**
   * Called by the platform's purge before the user's rows go (each delivery: deleting twice is
   * harmless): the files' objects and what was made from them, and unfinished uploads' parts.
   */
  async purgeUserData(userId: string): Promise<void> {
    const files = await this.store.filesOf(userId);
    await this.objects.delete(files.flatMap((file) => [file.storageKey, ...file.derivedKeys]));
    await this.uploads.dropPartsOf(userId);
    if (files.length) this.logger.log({ msg: 'Purged stored objects', files: files.length }, 'Files');
  }

  /** A file's objects (the stored one and what was made from it), then its row; false when the row was gone already. */
  private async discard(file: FileRecord): Promise<boolean> {
    await this.objects.delete([file.storageKey, ...file.derivedKeys]);
    return this.store.deleteFile(file.id, file.userId);
  }

  private async owned(caller: Caller, objectId: string): Promise<FileRecord> {
    const userId = userIdOf(caller);
    const file = UUID.test(objectId) ? await this.store.findFile(objectId) : null;
    if (!file || file.userId !== userId) throw DomainError.notFound(FILE_NOT_FOUND);
    return file;
  }

  /**
   * The owner always; anyone else with a signed link that is genuine and not expired (403). A link
   * that is not genuine (altered, forged, half of it missing) is the same 404 as a file that does
   * not exist, so a guessed id with a made-up signature tells nothing about which files exist;
   * only the holder of a genuine link learns that it expired.
   */
  private async readable(
    caller: Caller,
    input: { object_store_object_id: string; expires?: number; signature?: string },
  ): Promise<FileRecord> {
    const file = UUID.test(input.object_store_object_id) ? await this.store.findFile(input.object_store_object_id) : null;
    if (file && caller.user_id && file.userId === caller.user_id) return file;
    if (input.signature === undefined && input.expires === undefined) {
      if (!caller.user_id) throw DomainError.unauthorized();
      throw DomainError.notFound(FILE_NOT_FOUND);
    }
    // The same work whether the file exists or not: a dummy view is checked for a missing one.
    const view = file
      ? { objectId: file.id, ownerId: file.userId, expires: input.expires ?? 0 }
      : { objectId: '-', ownerId: '-', expires: input.expires ?? 0 };
    const check = checkViewSignature(await this.secret(), view, input.signature ?? '', nowSeconds());
    if (!file || input.signature === undefined || input.expires === undefined || check === 'invalid')
      throw DomainError.notFound(FILE_NOT_FOUND);
    if (check === 'expired') throw DomainError.forbidden(LINK_EXPIRED);
    return file;
  }

  /**
   * A file seen through a shared conversation: the chat service says whether the share shows it
   * and whose it is (SHARED_FILE_ACCESS); a share that does not show it, or no answer, is a 404.
   */
  private async throughShare(caller: Caller, objectId: string, shareId: string): Promise<FileRecord> {
    const file = UUID.test(objectId) ? await this.store.findFile(objectId) : null;
    if (!file) throw DomainError.notFound(FILE_NOT_FOUND);
    if (caller.user_id && file.userId === caller.user_id) return file;
    try {
      const access = await this.rpc.call(SHARED_FILE_ACCESS, { share_id: shareId, object_store_object_id: objectId }, caller, {
        timeoutMs: 5_000,
      });
      if (access.owner_user_id === file.userId) return file;
    } catch (error) {
      if (!(error instanceof RpcCallError)) throw error;
    }
    throw DomainError.notFound(FILE_NOT_FOUND);
  }

  private secret(): Promise<string> {
    return this.config.FILES_URL_SIGNING_SECRET ? Promise.resolve(this.config.FILES_URL_SIGNING_SECRET) : this.store.signingSecret();
  }
}
