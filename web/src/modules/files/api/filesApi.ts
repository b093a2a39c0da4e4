import { PRODUCT_CONSTANTS } from '@app/contracts/common/constants';
import { API } from '@app/contracts/gateway';
import type { FileReference } from '@app/contracts/chat';
import type { FileUploadResult, PresignedFile } from '@app/contracts/files';
import { ApiError, call, isAuthenticated } from '../../common/api/http';

/** The types the files service stores (the contracts' list, from a module without schemas); the server decides by the bytes. */
export { ALLOWED_FILE_TYPES as ACCEPTED_FILE_TYPES } from '@app/contracts/common/constants';
/** At most this many files on one message (SendMessageBodySchema). */
export const MAX_ATTACHMENTS = 10;

export const presignFailure = (id: string) => `Failed to get presigned URL for file ${id}`;

/** A presigned file as the client holds it: the reference, the answer, and isLoading (section 3). */
export type AttachmentView = FileReference & PresignedFile & { isLoading: boolean };

export const isImage = (mimeType: string) => mimeType.startsWith('image/');

/**
 * POST /files/ (multipart, field `file`). A 413 or 415 says why in its `detail`, shown as it
 * is; without one a plain sentence. Needs a login ('Not authenticated'); a 401 logs out.
 */
export async function uploadFile(file: File, signal?: AbortSignal): Promise<FileUploadResult> {
  const form = new FormData();
  form.append('file', file, file.name);
  try {
    return await call(API.files.upload, {}, { body: form, signal });
  } catch (error) {
    if (error instanceof ApiError && error.message === `API Error: ${error.status}`) {
      if (error.status === 413) throw new ApiError('This file is too large to attach.', 413);
      if (error.status === 415) throw new ApiError('This type of file cannot be attached.', 415);
    }
    throw error;
  }
}

export type PresignOptions = { shareId?: string | null; previewResolution?: number };

/**
 * GET /files/presigned/{id}: preview_resolution (default 256) only for image/* (section 5),
 * share_id on a shared page. Null without a login or after a 401 (which logs out); any other
 * failure throws 'Failed to get presigned URL for file {id}'.
 */
export function fetchPresignedFile(
  file: FileReference,
  { shareId, previewResolution = PRODUCT_CONSTANTS.previewResolutionDefault }: PresignOptions = {},
): Promise<PresignedFile | null> {
  const query = { preview_resolution: isImage(file.mime_type) ? previewResolution : undefined, share_id: shareId || undefined };
  return call(
    API.files.presigned,
    { params: { object_store_object_id: file.object_store_object_id }, query },
    { orElse: null, failure: presignFailure(file.object_store_object_id) },
  );
}

/**
 * The attachments of a message, each with isLoading = true for the page to clear once shown. An
 * overall failure is logged and yields an empty list (section 8), as does a missing login.
 */
export async function fetchPresignedFiles(files: FileReference[], options: PresignOptions = {}): Promise<AttachmentView[]> {
  if (!isAuthenticated() || files.length === 0) return [];
  try {
    const answers = await Promise.all(files.map((file) => fetchPresignedFile(file, options)));
    if (answers.some((answer) => answer === null)) return [];
    return answers.map((answer, index) => ({ ...files[index], ...answer!, isLoading: true }));
  } catch (error) {
    console.error(error);
    return [];
  }
}
