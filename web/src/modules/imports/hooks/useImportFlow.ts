import type { Import } from '@app/contracts/chat';
import { useCallback, useRef, useState } from 'react';
import { startImport, uploadExport, type ImportSourceChoice } from '../api/importsApi';

export type ImportStep =
  | { step: 'pick'; problem: string | null }
  | { step: 'uploading'; filename: string; share: number }
  | { step: 'importing'; importId: string };

/**
 * The import's steps in the browser: pick the zip, upload it (with its progress), start the import,
 * then follow it by id (useImport). A refusal of the upload or the start goes back to the picker
 * with the reason.
 */
export function useImportFlow() {
  const [state, setState] = useState<ImportStep>({ step: 'pick', problem: null });
  const abort = useRef<AbortController | null>(null);

  const begin = useCallback(async (file: File, source: ImportSourceChoice, learnMemories: boolean): Promise<Import | null> => {
    if (!/\.zip$/i.test(file.name) && file.type !== 'application/zip') {
      setState({ step: 'pick', problem: 'Choose the .zip file of your ChatGPT or Claude export.' });
      return null;
    }
    abort.current = new AbortController();
    setState({ step: 'uploading', filename: file.name, share: 0 });
    try {
      const uploaded = await uploadExport(
        file,
        (share) => setState({ step: 'uploading', filename: file.name, share }),
        abort.current.signal,
      );
      const started = await startImport({ object_store_object_id: uploaded.object_store_object_id, source, learn_memories: learnMemories });
      setState({ step: 'importing', importId: started.import_id });
      return started;
    } catch (error) {
      const cancelled = error instanceof DOMException && error.name === 'AbortError';
      setState({ step: 'pick', problem: cancelled ? null : error instanceof Error ? error.message : String(error) });
      return null;
    } finally {
      abort.current = null;
    }
  }, []);

  const cancelUpload = useCallback(() => abort.current?.abort(), []);
  const reset = useCallback(() => setState({ step: 'pick', problem: null }), []);
  const follow = useCallback((importId: string) => setState({ step: 'importing', importId }), []);
  return { state, begin, cancelUpload, reset, follow };
}
