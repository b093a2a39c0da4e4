import { useEffect, useRef } from 'react';
import { Icon } from '../../../ui/Icon';
import { useMemoryActions } from '../hooks/memoryQueries';
import { UNDO_MS, useRemovals } from '../state/removalStore';

const focusLost = () => !document.activeElement || document.activeElement === document.body;

function focusHeading(): void {
  const heading = document.querySelector<HTMLElement>('main h1, h1');
  if (!heading) return;
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  heading.focus();
}

/**
 * The latest removal, with Undo for a few seconds, and the error of a change that failed. When
 * the removed memory's button had the focus, Undo takes it; when the bar goes, the page heading.
 */
export function UndoBar() {
  const pending = useRemovals((s) => s.pending);
  const actionError = useRemovals((s) => s.actionError);
  const actions = useMemoryActions();
  const latest = pending.at(-1);
  const undo = useRef<HTMLButtonElement>(null);
  const id = latest?.memory.user_memory_id;

  const shown = useRef<string | undefined>(undefined);

  useEffect(() => {
    const before = shown.current;
    shown.current = id;
    if (!focusLost()) return;
    if (id) undo.current?.focus();
    else if (before) focusHeading();
  }, [id]);

  return (
    <div className="floating-stack undo-bar" aria-live="polite">
      {latest && (
        <div className="floating-note undo-bar__item" role="status" key={latest.memory.user_memory_id}>
          <span>
            {latest.kind === 'rejected' ? 'Rejected' : 'Deleted'}: “{latest.memory.text}”
          </span>
          <button
            type="button"
            ref={undo}
            className="button button--secondary button--small"
            onClick={() => void actions.undo(latest.memory.user_memory_id)}
          >
            Undo
          </button>
          <span className="undo-bar__timer" style={{ animationDuration: `${UNDO_MS}ms` }} aria-hidden="true" />
        </div>
      )}
      {actionError && (
        <div className="floating-note floating-note--error undo-bar__item" role="alert">
          <span>{actionError}</span>
          <button type="button" className="icon-button icon-button--small" aria-label="Dismiss" onClick={actions.dismissError}>
            <Icon name="close" size={14} />
          </button>
        </div>
      )}
    </div>
  );
}
