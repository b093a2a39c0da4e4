import type { Caller } from '@app/contracts';
import { FILES_RPC, type FileUploadResult } from '@app/contracts/files';
import { DomainError, RpcClient } from '@app/platform';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { drain, relayChunks } from '../http/chunked-relay';

export const NOT_MULTIPART = 'Send the file as multipart/form-data, in the field "file".';
export const NO_FILE = 'file: send the file in the multipart field "file"';
export const MALFORMED_MULTIPART = 'Malformed multipart body';
/** Busboy's own cap; the files service's limit (FILES_MAX_BYTES) is checked at every chunk. */
const STREAM_CEILING_BYTES = 1024 * 1024 * 1024;
const COMMIT_TIMEOUT_MS = 120_000;

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
  const file = part;
  return relayChunks(
    file.file,
    {
      begin: () =>
        rpc.call(
          FILES_RPC.uploadBegin,
          { filename: file.filename ?? '', declared_type: file.mimetype || null, ...(purpose === 'import' ? { purpose } : {}) },
          caller,
        ),
      chunk: (input) => rpc.call(FILES_RPC.uploadChunk, input, caller),
      commit: (upload_id) => rpc.call(FILES_RPC.uploadCommit, { upload_id }, caller, { timeoutMs: COMMIT_TIMEOUT_MS }),
      abort: (upload_id) => rpc.call(FILES_RPC.uploadAbort, { upload_id }, caller),
    },
    { malformed: MALFORMED_MULTIPART },
    () => {
      if (file.file.truncated) throw new DomainError('payload_too_large', 'The file is too large.');
    },
  );
}
