import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import { FILE_TRANSFER, type FileUploadResult } from '@app/contracts/files';
import { AppLogger, DomainError, runPeriodically, SERVICE_CONFIG, userIdOf, type Periodic, type PublicOf } from '@app/platform';
import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FilesConfig } from '../config';
import { isTextType, sniffContent, Utf8TextChecker } from '../files/content-sniffer';
import { sanitiseFilename } from '../files/file-names';
import { FilesRepository, type FileRecord, type UploadSessionRecord } from '../files/files.repository';
import type { FileSource } from '../files/user-file.columns';
import { OBJECT_KEYS, OBJECT_STORE, type ObjectStore } from '../store/object-store';

export const UPLOAD_NOT_FOUND = 'Upload not found (it may have expired). Start again.';
export const FILE_EMPTY = 'The file is empty.';
export const NOT_A_ZIP = 'This is not a zip file. Choose the export zip of ChatGPT or Claude.';
/** A zip's first bytes: a local file header, or the end record of an empty zip. */
const ZIP_MAGIC = [Buffer.from('PK\x03\x04', 'latin1'), Buffer.from('PK\x05\x06', 'latin1')];
export const NOT_TEXT = 'This file is neither an image, a PDF nor valid UTF-8 text, so it cannot be attached.';
const MAX_OPEN_SESSIONS = 8;
const SWEEP_EVERY_MS = 60_000;

export const tooLarge = (maxBytes: number) =>
  new DomainError('payload_too_large', `The file is too large (the limit is ${formatBytes(maxBytes)}).`);
const unsupported = (reason: string) => new DomainError('unsupported_media_type', reason);

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}

/** Parts a session has written: next_seq while open, encoded as -1 - parts once a commit claimed it. */
const partCount = (session: UploadSessionRecord) => (session.nextSeq >= 0 ? session.nextSeq : -1 - session.nextSeq);
const partKeys = (session: UploadSessionRecord) =>
  Array.from({ length: partCount(session) }, (_, seq) => OBJECT_KEYS.uploadPart(session.id, seq));

export const toUploadResult = (file: FileRecord): FileUploadResult => ({
  object_store_object_id: file.id,
  mime_type: file.mimeType,
  filename: file.filename,
  size: file.size,
});

class NotTextError extends Error {}

/**
 * Uploads as sessions of chunks, so no body is ever one bus message. Each chunk is written to the
 * object store as it comes (uploads/<id>/<seq>) and counted in the session row, so any replica of
 * the service may take any chunk. The first chunk decides the type by its bytes (415 at once for
 * a program or anything off the allow-list); the size is checked at every chunk (413). The commit
 * joins the parts into the file's object in one streamed write, checking text files whole (valid
 * UTF-8, no NUL) on the way, then drops the parts.
 */
@Injectable()
export class UploadsService implements OnApplicationBootstrap, OnApplicationShutdown {
  private sweeper?: Periodic;

  constructor(
    @Inject(FilesRepository) private readonly store: PublicOf<FilesRepository>,
    @Inject(OBJECT_STORE) private readonly objects: ObjectStore,
    @Inject(SERVICE_CONFIG) private readonly config: FilesConfig,
    private readonly logger: AppLogger,
  ) {}

  onApplicationBootstrap(): void {
    this.sweeper = runPeriodically(() => this.sweep(), SWEEP_EVERY_MS, this.logger, 'Uploads');
  }

  onApplicationShutdown(): void {
    this.sweeper?.stop();
  }

  /** The size limit of an upload: export zips to import have their own (IMPORT_MAX_BYTES). */
  private maxBytes(source: FileSource): number {
    return source === 'import' ? this.config.IMPORT_MAX_BYTES : this.config.FILES_MAX_BYTES;
  }

  async begin(
    caller: Caller,
    input: { filename: string; declared_type?: string | null; purpose?: 'attachment' | 'import' },
    fallback: FileSource = 'upload',
  ) {
    const source: FileSource = input.purpose === 'import' ? 'import' : fallback;
    const userId = userIdOf(caller);
    if ((await this.store.openSessionCount(userId)) >= MAX_OPEN_SESSIONS) {
      throw new DomainError('rate_limited', 'Too many uploads at once. Wait for one to finish.');
    }
    const id = randomUUID();
    await this.store.insertSession({
      id,
      userId,
      filename: sanitiseFilename(input.filename),
      declaredType: input.declared_type?.slice(0, 255) ?? null,
      source,
    });
    return { upload_id: id, chunk_bytes: FILE_TRANSFER.chunkBytes, max_bytes: this.maxBytes(source) };
  }

  async chunk(caller: Caller, input: { upload_id: string; seq: number; data: string }) {
    const userId = userIdOf(caller);
    const session = await this.store.findSession(input.upload_id, userId);
    if (!session || session.nextSeq < 0) throw DomainError.notFound(UPLOAD_NOT_FOUND);
    if (input.seq !== session.nextSeq)
      throw DomainError.conflict(`Chunk ${input.seq} is out of order: chunk ${session.nextSeq} is expected next.`);
    const bytes = Buffer.from(input.data, 'base64');
    if (bytes.length > FILE_TRANSFER.chunkBytes) throw DomainError.badRequest(`A chunk holds at most ${FILE_TRANSFER.chunkBytes} bytes.`);
    const maxBytes = this.maxBytes(session.source);
    if (session.receivedBytes + bytes.length > maxBytes) {
      await this.drop(session);
      throw tooLarge(maxBytes);
    }
    let mimeType: string | null = null;
    if (input.seq === 0 && session.source === 'import') {
      // An export to import is a zip, read by the chat service's zip reader (never shown, never given to the model).
      if (!ZIP_MAGIC.some((magic) => bytes.subarray(0, 4).equals(magic))) {
        await this.drop(session);
        throw unsupported(NOT_A_ZIP);
      }
      mimeType = 'application/zip';
    } else if (input.seq === 0) {
      const sniffed = sniffContent(bytes, { filename: session.filename, declaredType: session.declaredType, complete: false });
      if (!sniffed.ok) {
        await this.drop(session);
        throw sniffed.reason === FILE_EMPTY ? DomainError.badRequest(FILE_EMPTY) : unsupported(sniffed.reason);
      }
      mimeType = sniffed.type;
    }
    await this.objects.put(OBJECT_KEYS.uploadPart(session.id, input.seq), bytes, bytes.length, 'application/octet-stream');
    const advanced = await this.store.advanceSession(session.id, userId, input.seq, bytes.length, mimeType);
    if (!advanced) throw DomainError.conflict(`Chunk ${input.seq} was already received.`);
    return { received_bytes: advanced.receivedBytes };
  }

  async commit(caller: Caller, uploadId: string): Promise<FileUploadResult> {
    const userId = userIdOf(caller);
    const session = await this.store.findSession(uploadId, userId);
    if (!session || session.nextSeq < 0) throw DomainError.notFound(UPLOAD_NOT_FOUND);
    if (session.nextSeq === 0 || !session.mimeType) {
      await this.drop(session);
      throw DomainError.badRequest(FILE_EMPTY);
    }
    // Claim the commit: later chunks and a second commit find the session closed.
    if (!(await this.store.closeSession(session.id, userId, session.nextSeq))) throw DomainError.notFound(UPLOAD_NOT_FOUND);
    const parts = partKeys(session);
    try {
      return toUploadResult(await this.storeFile(userId, session, this.joined(parts), session.receivedBytes, session.mimeType));
    } finally {
      await this.drop(session);
    }
  }

  async abort(caller: Caller, uploadId: string) {
    const session = await this.store.findSession(uploadId, userIdOf(caller));
    if (!session) return { aborted: false };
    await this.drop(session);
    return { aborted: true };
  }

  /** A small object in one message (a generated image from the chat service), checked like an upload. */
  async put(
    caller: Caller,
    input: { data: string; filename: string; declared_type?: string | null; source: FileSource },
  ): Promise<FileUploadResult> {
    const userId = userIdOf(caller);
    const bytes = Buffer.from(input.data, 'base64');
    if (bytes.length > this.config.FILES_MAX_BYTES) throw tooLarge(this.config.FILES_MAX_BYTES);
    const filename = sanitiseFilename(input.filename);
    const sniffed = sniffContent(bytes, { filename, declaredType: input.declared_type, complete: true });
    if (!sniffed.ok) throw sniffed.reason === FILE_EMPTY ? DomainError.badRequest(FILE_EMPTY) : unsupported(sniffed.reason);
    const file = await this.storeFile(userId, { filename, source: input.source }, Readable.from([bytes]), bytes.length, sniffed.type);
    return toUploadResult(file);
  }

  /** Drops an upload session: its parts, then its row. Harmless when already gone. */
  async drop(session: UploadSessionRecord): Promise<void> {
    await this.objects.delete(partKeys(session));
    await this.store.deleteSession(session.id);
  }

  /** Upload sessions of a user, for the account purge (their rows go with the user's other rows). */
  async dropPartsOf(userId: string): Promise<void> {
    for (const session of await this.store.sessionsOf(userId)) await this.objects.delete(partKeys(session));
  }

  private async *joined(parts: string[]): AsyncGenerator<Buffer> {
    for (const key of parts) {
      for await (const chunk of await this.objects.get(key)) yield chunk as Buffer;
    }
  }

  /** Streams the content into its object (checking text whole and hashing on the way), then records it. */
  private async storeFile(
    userId: string,
    meta: { filename: string; source: FileSource },
    content: AsyncIterable<Buffer>,
    size: number,
    mimeType: string,
  ): Promise<FileRecord> {
    const id = randomUUID();
    const key = OBJECT_KEYS.file(id);
    const hash = createHash('sha256');
    const text = isTextType(mimeType) ? new Utf8TextChecker() : null;
    let textValid = true;
    async function* checked() {
      for await (const chunk of content) {
        hash.update(chunk);
        if (text && !text.push(chunk)) throw new NotTextError();
        yield chunk;
      }
      textValid = text ? text.end() : true;
      if (!textValid) throw new NotTextError();
    }
    try {
      await this.objects.put(key, Readable.from(checked()), size, mimeType);
      if (!textValid) throw new NotTextError();
    } catch (error) {
      await this.objects.delete([key]).catch(() => undefined);
      if (error instanceof NotTextError || (error as { cause?: unknown }).cause instanceof NotTextError) throw unsupported(NOT_TEXT);
      throw error;
    }
    return this.store.insertFile({
      id,
      userId,
      filename: meta.filename,
      mimeType,
      size,
      sha256: hash.digest('hex'),
      source: meta.source,
      storageKey: key,
    });
  }

  private async sweep(): Promise<void> {
    const idle = await this.store.sessionsIdleSince(new Date(Date.now() - this.config.FILES_UPLOAD_IDLE_SECONDS * 1000));
    for (const session of idle) {
      await this.drop(session);
      this.logger.log({ msg: 'Dropped an idle upload', upload_id: session.id }, 'Uploads');
    }
  }
}
