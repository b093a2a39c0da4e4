import type { Import } from '@app/contracts/chat';
import { Link } from 'react-router';
import { useCancelImport } from '../hooks/useImports';

const SOURCE_NAME = { chatgpt: 'ChatGPT', claude: 'Claude' } as const;
const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

type ImportProgressProps = { item: Import };

/**
 * A running import: a progress bar over its conversations (indeterminate until they are counted),
 * and a button that stops it (what it imported so far stays).
 */
export function ImportProgress({ item }: ImportProgressProps) {
  const cancel = useCancelImport();
  const total = item.conversations_total;
  const label =
    item.status === 'queued'
      ? 'Waiting to start…'
      : total === null
        ? 'Checking the export…'
        : `Importing conversations: ${item.conversations_done.toLocaleString()} of ${total.toLocaleString()}`;
  return (
    <div className="import-progress">
      <p id={`import-progress-${item.import_id}`} aria-live="polite">
        {label}
      </p>
      <progress
        aria-labelledby={`import-progress-${item.import_id}`}
        max={total ?? undefined}
        value={total === null ? undefined : item.conversations_done}
      />
      <div className="import-progress__actions">
        <button
          type="button"
          className="button button--secondary"
          disabled={cancel.isPending}
          onClick={() => cancel.mutate(item.import_id)}
        >
          {cancel.isPending ? 'Stopping…' : 'Stop import'}
        </button>
        {cancel.error && (
          <span className="notice notice--error" role="alert">
            {cancel.error.message}
          </span>
        )}
      </div>
    </div>
  );
}

type ImportSummaryProps = { item: Import };

/** What an import did: imported, already there, what was left out and why; or why it was refused. */
export function ImportSummary({ item }: ImportSummaryProps) {
  if (item.status === 'failed')
    return (
      <p className="notice notice--error" role="alert">
        The import was refused: {item.error ?? 'it failed.'} Nothing was imported.
      </p>
    );
  const from = item.source ? ` from ${SOURCE_NAME[item.source]}` : '';
  return (
    <div className="import-summary" role="status">
      {item.status === 'cancelled' && (
        <p className="notice notice--info">
          {item.error ?? 'You stopped this import.'}{' '}
          {item.conversations_imported > 0
            ? 'What it imported before it stopped stays in your conversations; importing the same zip again adds only the rest.'
            : 'Nothing was imported.'}
        </p>
      )}
      {(item.status !== 'cancelled' || item.conversations_imported > 0) && (
        <p>
          <strong>
            Imported {count(item.conversations_imported, 'conversation')}
            {from}
          </strong>{' '}
          ({count(item.messages_imported, 'message')}, {count(item.attachments_imported, 'attachment')}).
        </p>
      )}
      {item.conversations_existing > 0 && (
        <p className="muted">
          {count(item.conversations_existing, 'conversation was', 'conversations were')} imported before and left untouched.
        </p>
      )}
      {item.skipped_total > 0 && (
        <details className="import-summary__skipped">
          <summary>{count(item.skipped_total, 'item', 'items')} could not be imported</summary>
          <ul>
            {item.skipped.map((line, index) => (
              <li key={index}>
                {line.conversation && <span className="import-summary__where">{line.conversation}: </span>}
                {line.reason}
                {line.count > 1 && <span className="muted"> (×{line.count})</span>}
              </li>
            ))}
          </ul>
          {item.skipped_total > item.skipped.reduce((sum, line) => sum + line.count, 0) && <p className="muted">And more not listed.</p>}
        </details>
      )}
      {item.learn_memories && item.conversations_imported > 0 && (
        <p>
          Memories learnt from them wait for you: <Link to="/confirm-memories">review them</Link>.
        </p>
      )}
    </div>
  );
}
