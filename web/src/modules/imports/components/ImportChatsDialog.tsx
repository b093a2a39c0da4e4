import { useState, type FormEvent } from 'react';
import { Dialog } from '../../../ui/Dialog';
import { Field } from '../../../ui/Field';
import type { ImportSourceChoice } from '../api/importsApi';
import { isUnderWay, useImport } from '../hooks/useImports';
import { useImportFlow } from '../hooks/useImportFlow';
import { ImportProgress, ImportSummary } from './ImportSummary';

type ImportChatsDialogProps = { open: boolean; onClose: () => void; followImportId?: string | null };

/**
 * Import chats: pick the export zip (ChatGPT or Claude), upload it (a progress bar), then the
 * import's own progress, then its summary. Closing the dialog does not stop an import: it goes on
 * on the server, and Settings shows it.
 */
export function ImportChatsDialog({ open, onClose, followImportId = null }: ImportChatsDialogProps) {
  const flow = useImportFlow();
  const [file, setFile] = useState<File | null>(null);
  const [source, setSource] = useState<ImportSourceChoice>('auto');
  const [learn, setLearn] = useState(false);
  const importId = flow.state.step === 'importing' ? flow.state.importId : followImportId;
  const followed = useImport(importId);
  const current = importId ? followed.data : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (file) void flow.begin(file, source, learn);
  };
  const close = () => {
    if (flow.state.step === 'uploading') flow.cancelUpload();
    flow.reset();
    setFile(null);
    onClose();
  };

  return (
    <Dialog open={open} title="Import chats" onClose={close} className="import-dialog">
      {importId ? (
        <div className="form">
          {!current || isUnderWay(current) ? (
            current ? (
              <ImportProgress item={current} />
            ) : (
              <p aria-live="polite">Starting the import…</p>
            )
          ) : (
            <ImportSummary item={current} />
          )}
          <div className="form__actions">
            {current && !isUnderWay(current) && (
              <button
                type="button"
                className="button button--secondary"
                onClick={() => {
                  flow.reset();
                  setFile(null);
                }}
              >
                Import another
              </button>
            )}
            <button type="button" className="button button--primary" onClick={close}>
              {current && !isUnderWay(current) ? 'Done' : 'Close (it goes on)'}
            </button>
          </div>
        </div>
      ) : flow.state.step === 'uploading' ? (
        <div className="form">
          <p id="import-upload-label" aria-live="polite">
            Uploading {flow.state.filename}: {Math.round(flow.state.share * 100)}%
          </p>
          <progress aria-labelledby="import-upload-label" max={1} value={flow.state.share} />
          <div className="form__actions">
            <button type="button" className="button button--secondary" onClick={flow.cancelUpload}>
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <form className="form" onSubmit={submit}>
          <p className="muted">
            Bring your history from ChatGPT (Settings → Data controls → Export data) or Claude (Settings → Privacy → Export data): choose
            the zip you received. Every conversation keeps its title, dates and branches; importing the same zip again adds nothing twice.
          </p>
          <Field label="Export zip" problem={flow.state.step === 'pick' ? flow.state.problem : null}>
            {(control) => (
              <input
                {...control}
                type="file"
                accept=".zip,application/zip"
                onChange={(event) => setFile(event.target.files?.[0] ?? null)}
              />
            )}
          </Field>
          <Field label="From">
            {(control) => (
              <select {...control} value={source} onChange={(event) => setSource(event.target.value as ImportSourceChoice)}>
                <option value="auto">Find out from the file</option>
                <option value="chatgpt">ChatGPT</option>
                <option value="claude">Claude</option>
              </select>
            )}
          </Field>
          <label className="import-dialog__check">
            <input type="checkbox" checked={learn} onChange={(event) => setLearn(event.target.checked)} />
            <span>
              Learn memories from the imported conversations
              <small className="muted"> (you confirm each one before it is used)</small>
            </span>
          </label>
          <div className="form__actions">
            <button type="button" className="button button--secondary" onClick={close}>
              Cancel
            </button>
            <button type="submit" className="button button--primary" disabled={!file}>
              Import
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
