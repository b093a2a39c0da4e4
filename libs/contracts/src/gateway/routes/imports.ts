import { z } from 'zod';
import { IMPORT_RPC, ImportParamsSchema, ImportSchema, StartImportBodySchema } from '../../chat/imports';
import { FileUploadResultSchema } from '../../files/index';
import { defineRoute } from '../route';

/** Importing ChatGPT and Claude history (issue 25, part 3): upload the export zip, start, follow. */
export const importRoutes = {
  upload: defineRoute({
    method: 'POST',
    path: '/api/v1/imports/uploads',
    summary: 'Upload an export zip to import (multipart/form-data, field `file`); 413 over IMPORT_MAX_BYTES, 415 when it is not a zip',
    tag: 'imports',
    auth: 'bearer',
    consumes: 'multipart/form-data',
    body: z.object({ file: z.string().describe('the export zip (binary)') }),
    response: FileUploadResultSchema,
    status: 201,
    errors: { 413: 'The zip is over the import size limit', 415: 'Not a zip' },
  }),
  start: defineRoute({
    method: 'POST',
    path: '/api/v1/imports/',
    summary: 'Import an uploaded export zip of ChatGPT or Claude (runs in the background: follow it with GET /api/v1/imports/{import_id})',
    tag: 'imports',
    auth: 'bearer',
    body: StartImportBodySchema,
    response: ImportSchema,
    status: 202,
    errors: {
      404: 'No such uploaded zip of the caller',
      409: 'An import of the caller is already under way',
      415: 'The object is not an uploaded export zip',
    },
    rpc: IMPORT_RPC.start,
  }),
  cancel: defineRoute({
    method: 'POST',
    path: '/api/v1/imports/:import_id/cancel',
    summary:
      'Stop an import that is queued or running: no conversation is written after this answer; those imported before stay. Cancelling a cancelled import again answers it as it is',
    tag: 'imports',
    auth: 'bearer',
    params: ImportParamsSchema,
    response: ImportSchema,
    errors: { 404: 'No such import of the caller', 409: 'The import is over already (done or refused)' },
    rpc: IMPORT_RPC.cancel,
  }),
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/imports/',
    summary: "The caller's imports, newest first",
    tag: 'imports',
    auth: 'bearer',
    response: z.array(ImportSchema),
    rpc: IMPORT_RPC.list,
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/v1/imports/:import_id',
    summary: "An import's progress, then its summary (what was imported, what was skipped and why)",
    tag: 'imports',
    auth: 'bearer',
    params: ImportParamsSchema,
    response: ImportSchema,
    errors: { 404: 'No such import of the caller' },
    rpc: IMPORT_RPC.get,
  }),
};
