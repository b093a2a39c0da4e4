import { z } from 'zod';
import {
  FileParamsSchema,
  FILES_RPC,
  FileUploadResultSchema,
  PresignedFileSchema,
  PresignQuerySchema,
  ViewQuerySchema,
} from '../../files/index';
import { defineRoute } from '../route';

/** The routes of the area `files` (`API.files`). */
export const filesRoutes = {
  upload: defineRoute({
    method: 'POST',
    path: '/api/v1/files/',
    summary:
      'Upload a file (multipart/form-data, field `file`); 413 over the size limit, 415 for a type off the allow-list (decided by the bytes)',
    tag: 'files',
    auth: 'bearer',
    consumes: 'multipart/form-data',
    body: z.object({ file: z.string().describe('the file (binary)') }),
    response: FileUploadResultSchema,
    status: 201,
    errors: { 413: 'The file is over the size limit', 415: 'The type of the file is not allowed' },
  }),
  presigned: defineRoute({
    method: 'GET',
    path: '/api/v1/files/presigned/:object_store_object_id',
    summary: 'A short-lived signed link to a file, its name and (images) a preview data URL',
    tag: 'files',
    auth: 'bearer',
    params: FileParamsSchema,
    query: PresignQuerySchema,
    response: PresignedFileSchema,
    errors: { 404: 'No such file of the caller' },
    rpc: FILES_RPC.presign,
  }),
  view: defineRoute({
    method: 'GET',
    path: '/api/v1/files/view/:object_store_object_id',
    summary:
      "A file's bytes: for its owner (bearer or the access_token cookie of this path) or with a signed link (403 expired or altered)",
    tag: 'files',
    auth: 'public',
    params: FileParamsSchema,
    query: ViewQuerySchema,
    produces: 'application/octet-stream',
    response: z.string(),
    errors: { 401: 'Neither the owner nor a signed link', 403: 'The signed link expired or was altered' },
  }),
} as const;
