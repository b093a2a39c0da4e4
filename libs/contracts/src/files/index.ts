import { z } from 'zod';
import { PRODUCT_CONSTANTS } from '../common/constants';
import { defineRpc, defineStream } from '../common/contract';
import { commonCalls } from '../common/service-calls';

// ---- Limits and types (issue 7) --------------------------------------------------------------------

/**
 * How bytes move over the bus: never as one message (NATS carries at most 1 MB). Uploads go in
 * chunks of `chunkBytes` raw bytes (base64 on the wire: 256 KiB), file bodies come back as a
 * stream of chunks of the same size.
 */
export const FILE_TRANSFER = {
  chunkBytes: 192 * 1024,
  /** Base64 characters of one chunk on the wire (4/3 of chunkBytes). */
  chunkBase64Chars: 256 * 1024,
  /** `files.object.put` takes a small object in one message (about 512 KiB of bytes). */
  putBase64MaxChars: 700_000,
} as const;

export const PREVIEW_RESOLUTION = { min: 16, max: 1024, default: PRODUCT_CONSTANTS.previewResolutionDefault } as const;
export const MODEL_INPUT = { imageMaxPx: 1568, textMaxChars: 100_000, textMaxCharsLimit: 200_000 } as const;

export { ALLOWED_FILE_TYPES, type AllowedFileType } from '../common/constants';

/**
 * The only types a stored file is shown as in the browser (Content-Disposition: inline), from the
 * product's own origin: raster images (never SVG) and plain text (with nosniff and a fixed
 * charset a browser shows it as text, nothing else). PDFs and everything else are downloads: a
 * PDF viewer is a program running a stranger's document on our origin.
 */
export const INLINE_FILE_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'text/plain'];

/** Object ids are UUIDs; anything else is simply not found (the HTTP layer takes any short string). */
export const ObjectIdSchema = z.string().min(1).max(128);
const uploadId = z.uuid();
/**
 * Base64 bytes, checked cheaply (a regex over 256 KiB costs more than the rest of a chunk's trip):
 * a plain loop over the characters. (A decoder that skips foreign characters would silently corrupt a chunk.)
 */
const BASE64_CHAR = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') BASE64_CHAR[c.charCodeAt(0)] = 1;
export function isBase64(value: string): boolean {
  if (value.length % 4 !== 0) return false;
  const end = value.endsWith('==') ? value.length - 2 : value.endsWith('=') ? value.length - 1 : value.length;
  for (let i = 0; i < end; i++) {
    const code = value.charCodeAt(i);
    if (code > 127 || BASE64_CHAR[code] === 0) return false;
  }
  return true;
}
const base64 = (max: number) => z.string().max(max).refine(isBase64, 'must be base64');

// ---- HTTP answers and queries (spec sections 3 and 7, DESIGN section 4) ---------------------------

/** `POST /api/v1/files/` */
export const FileUploadResultSchema = z.object({
  object_store_object_id: z.string(),
  mime_type: z.string(),
  filename: z.string(),
  size: z.number().int().nonnegative(),
});
export type FileUploadResult = z.infer<typeof FileUploadResultSchema>;

/** The Presigned file result of spec section 3 (the client adds isLoading). */
export const PresignedFileSchema = z.object({
  /** A short-lived signed link to `GET /api/v1/files/view/{id}` (root-relative). */
  presigned_url: z.string(),
  /** A small image as a data URL, for image/* only; null otherwise. */
  preview_data_url: z.string().nullable(),
  filename: z.string(),
});
export type PresignedFile = z.infer<typeof PresignedFileSchema>;

export const PresignQuerySchema = z.object({
  preview_resolution: z.coerce.number().int().min(PREVIEW_RESOLUTION.min).max(PREVIEW_RESOLUTION.max).default(PREVIEW_RESOLUTION.default),
  /**
   * A file seen through a shared conversation (readable through the share only: the chat service
   * answers SHARED_FILE_ACCESS below; 404 when the share does not show the file).
   */
  share_id: z.string().trim().min(1).max(64).optional(),
});

/** `GET /api/v1/files/view/{id}`: a signed link carries both; without them the caller's token decides. */
export const ViewQuerySchema = z.object({
  expires: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 40)
    .optional(),
  signature: z.string().max(128).optional(),
});

export const FileParamsSchema = z.object({ object_store_object_id: ObjectIdSchema });

// ---- What other services learn about a file -------------------------------------------------------

export const FileDescriptionSchema = z.object({
  object_store_object_id: z.string(),
  mime_type: z.string(),
  filename: z.string(),
  size: z.number().int().nonnegative(),
  /** `import`: an export zip uploaded to be imported (issue 25), not an attachment. */
  source: z.enum(['upload', 'generated', 'import']),
  created_at: z.string(),
});
export type FileDescription = z.infer<typeof FileDescriptionSchema>;

/** A file as the model takes it: an image (downscaled, base64 data URL) or text (PDF or text file). */
export const ModelInputSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('image'),
    mime_type: z.string(),
    data_url: z.string(),
    width: z.number().int(),
    height: z.number().int(),
    filename: z.string(),
  }),
  z.object({
    kind: z.literal('text'),
    mime_type: z.string(),
    text: z.string(),
    /** The text was cut at max_text_chars. */
    truncated: z.boolean(),
    /** Pages of a PDF; null for a text file. */
    pages: z.number().int().nullable(),
    filename: z.string(),
  }),
]);
export type ModelInput = z.infer<typeof ModelInputSchema>;

/** One frame of a file body: first the head (how to serve it), then the bytes in order. */
export const FileChunkSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('head'),
    /** What to send as Content-Type (a safe type, with charset for text). */
    content_type: z.string(),
    /** inline for INLINE_FILE_TYPES only (raster images, plain text); attachment for anything else. */
    disposition: z.enum(['inline', 'attachment']),
    filename: z.string(),
    size: z.number().int().nonnegative(),
  }),
  z.object({ kind: z.literal('data'), data: base64(FILE_TRANSFER.chunkBase64Chars + 4) }),
]);
export type FileChunk = z.infer<typeof FileChunkSchema>;

// ---- Calls to the files service ---------------------------------------------------------------------

const objectRef = { object_store_object_id: ObjectIdSchema };

export const FILES_RPC = {
  ...commonCalls('files'),

  /**
   * Uploads travel as a session of chunks (begin, chunk..., commit), so no body is ever one bus
   * message. Chunks go to the object store as they come (any replica may take any chunk); the
   * commit joins them, checks the whole content and stores the file. Other services may use it
   * too (generated images larger than `files.object.put` takes).
   */
  uploadBegin: defineRpc({
    subject: 'files.upload.begin',
    request: z
      .object({
        filename: z.string().max(4096),
        declared_type: z.string().max(255).nullish(),
        /** `import`: an export zip to import (a zip only, up to IMPORT_MAX_BYTES); an attachment otherwise. */
        purpose: z.enum(['attachment', 'import']).optional(),
      })
      .strict(),
    response: z.object({ upload_id: z.string(), chunk_bytes: z.number().int(), max_bytes: z.number().int() }),
    description: 'Open an upload session for the caller',
  }),
  uploadChunk: defineRpc({
    subject: 'files.upload.chunk',
    request: z
      .object({ upload_id: uploadId, seq: z.number().int().min(0).max(1_000_000), data: base64(FILE_TRANSFER.chunkBase64Chars + 4).min(1) })
      .strict(),
    response: z.object({ received_bytes: z.number().int() }),
    description:
      'The next chunk of an upload (seq from 0); the first one decides the type (415 if not allowed), any one may exceed the limit (413)',
  }),
  uploadCommit: defineRpc({
    subject: 'files.upload.commit',
    request: z.object({ upload_id: uploadId }).strict(),
    response: FileUploadResultSchema,
    description: 'Join the chunks into the stored file (the whole content checked) and close the session',
  }),
  uploadAbort: defineRpc({
    subject: 'files.upload.abort',
    request: z.object({ upload_id: uploadId }).strict(),
    response: z.object({ aborted: z.boolean() }),
    description: 'Drop an upload session and what it received',
  }),

  /** For the chat service: a small object (a generated image) in one message, checked like an upload. */
  put: defineRpc({
    subject: 'files.object.put',
    request: z
      .object({
        data: base64(FILE_TRANSFER.putBase64MaxChars).min(1),
        filename: z.string().max(4096),
        declared_type: z.string().max(255).nullish(),
        source: z.enum(['upload', 'generated']).default('generated'),
      })
      .strict(),
    response: FileUploadResultSchema,
    description: 'Store a small object for the caller (at most about 512 KiB; larger ones go through files.upload.*)',
  }),
  describe: defineRpc({
    subject: 'files.object.describe',
    request: z.object(objectRef).strict(),
    response: FileDescriptionSchema,
    description: "One of the caller's files (404 when missing or someone else's)",
  }),
  readForModel: defineRpc({
    subject: 'files.object.read-for-model',
    request: z
      .object({
        ...objectRef,
        max_image_px: z.number().int().min(64).max(MODEL_INPUT.imageMaxPx).default(MODEL_INPUT.imageMaxPx),
        max_text_chars: z.number().int().min(1).max(MODEL_INPUT.textMaxCharsLimit).default(MODEL_INPUT.textMaxChars),
      })
      .strict(),
    response: ModelInputSchema,
    description: "One of the caller's files as the model takes it: an image as a downscaled data URL, a PDF or text file as its text",
  }),
  presign: defineRpc({
    subject: 'files.object.presign',
    request: z
      .object({
        ...objectRef,
        preview_resolution: z.number().int().min(PREVIEW_RESOLUTION.min).max(PREVIEW_RESOLUTION.max),
        share_id: z.string().max(64).optional(),
      })
      .strict(),
    response: PresignedFileSchema,
    description: 'A short-lived signed link to a file, its name and (for images) a small preview',
  }),
  discardImport: defineRpc({
    subject: 'files.import.discard',
    request: z.object(objectRef).strict(),
    response: z.object({ discarded: z.boolean() }),
    description: "Delete one of the caller's uploaded export zips once its import is over (false when gone; 404 for any other file)",
  }),
  discardAttachments: defineRpc({
    subject: 'files.attachments.discard',
    request: z.object({ object_store_object_ids: z.array(ObjectIdSchema).min(1).max(100) }).strict(),
    response: z.object({ discarded: z.number().int() }),
    description:
      "Delete some of the caller's uploaded attachments that nothing refers to (an import's, for a conversation it did not write); others' files, other sources and ids gone are left alone",
  }),
  read: defineStream({
    subject: 'files.object.read',
    request: z.object({ ...objectRef, expires: z.number().int().optional(), signature: z.string().max(128).optional() }).strict(),
    chunk: FileChunkSchema,
    description: "A file's body: for its owner, or for anyone with a valid signed link (403 when expired or altered)",
  }),
} as const;

// ---- Served by the chat service: files seen through a share -----------------------------------------

/**
 * Files attached to a SHARED conversation are readable through the share only. The chat service
 * answers this on the subject below (chat.handlers.ts): whether a message of the share's
 * active history carries the file (in `metadata.files` or as a generated image), and whose
 * conversation it is. The files service asks it when `files.object.presign` carries a share_id,
 * and serves the file only when the owner matches the file's; otherwise 404.
 */
export const SHARED_FILE_ACCESS_SUBJECT = 'chat.share.file-access';
export const SharedFileAccessRequestSchema = z.object({ share_id: z.string().max(64), object_store_object_id: ObjectIdSchema }).strict();
export const SharedFileAccessResponseSchema = z.object({ owner_user_id: z.string() });
export const SHARED_FILE_ACCESS = defineRpc({
  subject: SHARED_FILE_ACCESS_SUBJECT,
  request: SharedFileAccessRequestSchema,
  response: SharedFileAccessResponseSchema,
  description: 'Whether a shared conversation shows a file, and its owner (404 otherwise)',
});
