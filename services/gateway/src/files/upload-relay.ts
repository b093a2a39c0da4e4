import type { Caller } from '@app/contracts';
import { FILES_RPC, type FileUploadResult } from '@app/contracts/files';
import { DomainError, RpcClient, rechunk } from '@app/platform';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';

export const NOT_MULTIPART = 'Send the file as multipart/form-data, in the field "file".';
export const NO_FILE = 'file: send the file in the multipart field "file"';
export const MALFORMED_MULTIPART = 'Malformed multipart body';
/** Busboy's own cap; the files service's limit (FILES_MAX_BYTES) is checked at every chunk. */
const STREAM_CEILING_BYTES = 1024 * 1024 * 1024;
const COMMIT_TIMEOUT_MS = 120_000;

/** Reads what is left of a part and throws it away, so the client still gets its answer (413, 415...). */
async function drain(stream: Readable): Promise<void> {
  if (stream.readableEnded || stream.destroyed) return;
  stream.resume();
  await finished(stream).catch(() => undefined);
}

/**
 * The bytes of a part; a body that breaks off or is malformed mid-part (busboy's "Unexpected end
 * of multipart data", say) is the client's fault: 400 `{detail}`, never a 500.
 */
async function* partBytes(stream: Readable): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of stream) yield chunk as Buffer;
  } catch {
    throw DomainError.badRequest(MALFORMED_MULTIPART);
  }
}

/**
 * Moves an upload from the HTTP request to the files service without ever holding it whole:
 * `files.upload.begin`, then each chunk (FILE_TRANSFER.chunkBytes, base64) as its own
 * `files.upload.chunk` call as the bytes arrive (the request is read no faster than the service
 * takes them), then `files.upload.commit`.
 *
 * Why chunks over the bus rather than a presigned upload URL the gateway writes to: it works the
 * same with both object stores (the local folder has no URL) and both transports, the gateway holds
 * no object-store credentials, and the files service sees every byte, so type sniffing (first
 * chunk: a program is refused before the rest is sent), the size limit (each chunk) and the text
 * check (commit) happen where the rules live.
 */
export async function relayUpload(
  request: FastifyRequest,
  rpc: RpcClient,
  caller: Caller,
  purpose: 'attachment' | 'import' = 'attachment',
): Promise<FileUploadResult> {
  if (!request.isMultipart()) throw new DomainError('unsupported_media_type', NOT_MULTIPART);
  let part: MultipartFile | undefined;
  try {
    part = await request.file({
      limits: { files: 1, fields: 10, fieldSize: 4096, parts: 20, fileSize: STREAM_CEILING_BYTES },
      throwFileSizeLimit: false,
    });
  } catch {
    throw DomainError.badRequest(MALFORMED_MULTIPART);
  }
  if (!part || part.fieldname !== 'file') {
    if (part) await drain(part.file);
    throw new DomainError('validation_failed', NO_FILE);
  }
  let session: { upload_id: string; chunk_bytes: number };
  try {
    session = await rpc.call(
      FILES_RPC.uploadBegin,
      { filename: part.filename ?? '', declared_type: part.mimetype || null, ...(purpose === 'import' ? { purpose } : {}) },
      caller,
    );
  } catch (error) {
    await drain(part.file);
    throw error;
  }
  const { upload_id, chunk_bytes } = session;
  try {
    let seq = 0;
    for await (const chunk of rechunk(partBytes(part.file), chunk_bytes)) {
      await rpc.call(FILES_RPC.uploadChunk, { upload_id, seq: seq++, data: chunk.toString('base64') }, caller);
    }
    if (part.file.truncated) throw new DomainError('payload_too_large', 'The file is too large.');
    return await rpc.call(FILES_RPC.uploadCommit, { upload_id }, caller, { timeoutMs: COMMIT_TIMEOUT_MS });
  } catch (error) {
    await drain(part.file);
    await rpc.call(FILES_RPC.uploadAbort, { upload_id }, caller).catch(() => undefined);
    throw error;
  }
}
