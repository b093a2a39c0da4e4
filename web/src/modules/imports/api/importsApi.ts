import type { Import } from '@app/contracts/chat';
import type { FileUploadResult } from '@app/contracts/files';
import { API } from '@app/contracts/gateway';
import { routeUrl } from '@app/contracts/gateway/route';
import { ApiError, call, identityHeaders } from '../../common/api/http';

export type ImportSourceChoice = 'auto' | 'chatgpt' | 'claude';

export const FAILED_FETCH_IMPORTS = 'Failed to fetch imports';

/**
 * POST /api/v1/imports/uploads (multipart, field `file`), with the upload's progress (0..1): fetch
 * cannot report an upload's progress, XMLHttpRequest can. A refusal says why (its `detail`).
 */
export function uploadExport(file: File, onProgress: (share: number) => void, signal?: AbortSignal): Promise<FileUploadResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(API.imports.upload.method, routeUrl(API.imports.upload.path));
    identityHeaders(new Headers()).forEach((value, name) => xhr.setRequestHeader(name, value));
    xhr.responseType = 'json';
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      const body = xhr.response as { detail?: unknown } | null;
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as FileUploadResult);
      else
        reject(
          new ApiError(
            typeof body?.detail === 'string'
              ? body.detail
              : xhr.status === 413
                ? 'This zip is too large to import.'
                : `API Error: ${xhr.status}`,
            xhr.status,
          ),
        );
    };
    xhr.onerror = () => reject(new ApiError('The upload failed. Check your connection and try again.', 0));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

/** POST /api/v1/imports/: starts importing the uploaded zip (it runs on the server). */
export const startImport = (body: {
  object_store_object_id: string;
  source: ImportSourceChoice;
  learn_memories: boolean;
}): Promise<Import> => call(API.imports.start, { body });

export const fetchImport = (id: string): Promise<Import | null> =>
  call(API.imports.get, { params: { import_id: id } }, { orElse: null, failure: 'Failed to fetch the import' });

export const fetchImports = (): Promise<Import[]> => call(API.imports.list, {}, { orElse: [], failure: FAILED_FETCH_IMPORTS });

/** POST /api/v1/imports/{id}/cancel: stops an import under way (what it imported stays). A refusal says why. */
export const cancelImport = (id: string): Promise<Import> => call(API.imports.cancel, { params: { import_id: id } });
