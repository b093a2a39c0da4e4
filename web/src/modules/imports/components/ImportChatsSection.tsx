import { useState } from 'react';
import { Icon } from '../../../ui/Icon';
import { isUnderWay, useImports } from '../hooks/useImports';
import { ImportChatsDialog } from './ImportChatsDialog';
import { ImportProgress } from './ImportSummary';
import './imports.css';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Settings → Import chats: the button, the import under way (if any) and the last imports. */
export function ImportChatsSection() {
  const [open, setOpen] = useState(false);
  const [follow, setFollow] = useState<string | null>(null);
  const imports = useImports();
  const running = imports.data?.find(isUnderWay) ?? null;
  const recent = (imports.data ?? []).filter((i) => !isUnderWay(i)).slice(0, 3);
  return (
    <>
      <div className="settings__row">
        <div>
          <h3>Import chats</h3>
          <p className="muted">Your conversations from ChatGPT or Claude, from their export zip.</p>
        </div>
        <button
          type="button"
          className="button button--secondary"
          onClick={() => {
            setFollow(running?.import_id ?? null);
            setOpen(true);
          }}
        >
          <Icon name="upload" size={16} /> {running ? 'Show import' : 'Import chats'}
        </button>
      </div>
      {running && <ImportProgress item={running} />}
      {recent.length > 0 && (
        <ul className="import-list" aria-label="Recent imports">
          {recent.map((item) => (
            <li key={item.import_id}>
              <button
                type="button"
                className="link-button"
                onClick={() => {
                  setFollow(item.import_id);
                  setOpen(true);
                }}
              >
                {item.filename}
              </button>{' '}
              <span className="muted">
                {when(item.created_at)}:{' '}
                {item.status === 'failed'
                  ? 'refused'
                  : `${item.conversations_imported.toLocaleString()} conversations imported${item.status === 'cancelled' ? ' (stopped)' : ''}`}
              </span>
            </li>
          ))}
        </ul>
      )}
      <ImportChatsDialog open={open} followImportId={follow} onClose={() => setOpen(false)} />
    </>
  );
}
