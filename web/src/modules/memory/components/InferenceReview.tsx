import { useState } from 'react';
import { Icon } from '../../../ui/Icon';
import { Spinner } from '../../../ui/Spinner';
import { useLoadMemories } from '../hooks/useMemories';
import { awaitsConfirmation, confirmMemory, rejectMemory, useMemoryState } from '../state/memoryStore';
import './memories.css';

/**
 * What the assistant guessed about the user (inferences not confirmed yet), to confirm or reject,
 * for the /confirm-memories step. Those confirmed here stay listed as confirmed.
 */
export function InferenceReview() {
  const { reload } = useLoadMemories(null);
  const scope = useMemoryState((s) => s.scope);
  const status = useMemoryState((s) => s.status);
  const error = useMemoryState((s) => s.error);
  const items = useMemoryState((s) => s.items);
  const busy = useMemoryState((s) => s.busy);
  // Guesses confirmed in this visit stay in the list, marked as confirmed.
  const [confirmedHere, setConfirmedHere] = useState<string[]>([]);
  const loaded = scope === '' && (status === 'ready' || (status === 'loading' && items.length > 0));
  const guesses = loaded ? items.filter((m) => awaitsConfirmation(m) || (m.is_inference && confirmedHere.includes(m.user_memory_id))) : [];
  const confirm = (id: string) => {
    setConfirmedHere((ids) => [...ids, id]);
    void confirmMemory(id).catch(() => undefined);
    // Its buttons go: the focus moves to the next guess, else to what follows the list.
    requestAnimationFrame(() => document.querySelector<HTMLElement>('.inference-review [data-guess] button, #confirm-memories-continue')?.focus());
  };

  if (scope === '' && status === 'error') {
    return (
      <div className="notice notice--error" role="alert">
        <span>{error}</span>
        <button type="button" className="link-button" onClick={reload}>
          Try again
        </button>
      </div>
    );
  }
  if (!loaded) {
    return (
      <div className="empty-state empty-state--compact">
        <Spinner label="Loading what the assistant guessed" />
      </div>
    );
  }
  if (guesses.length === 0) {
    return (
      <div className="empty-state empty-state--compact">
        <h2>Nothing to confirm yet</h2>
        <p className="muted">As you chat, what the assistant learns about you will show up here for you to confirm.</p>
      </div>
    );
  }
  return (
    <div className="inference-review">
      <h2>Is this right?</h2>
      <p className="muted">The assistant guessed these from what you said. Confirm what is true; reject the rest and it is forgotten.</p>
      <ul className="memory-list">
        {guesses.map((memory) => {
          const working = busy.includes(memory.user_memory_id);
          return (
            <li key={memory.user_memory_id} className="memory" data-guess={!memory.is_confirmed || undefined}>
              <div className="memory__main">
                <p className="memory__text">{memory.text}</p>
              </div>
              <div className="memory__actions">
                {memory.is_confirmed ? (
                  <span className="memory__done" role="status">
                    <Icon name="check" size={16} /> Confirmed
                  </span>
                ) : (
                  <>
                    <button type="button" className="button button--primary button--small" disabled={working} aria-label={`Confirm: ${memory.text}`} onClick={() => confirm(memory.user_memory_id)}>
                      <Icon name="check" size={16} /> Confirm
                    </button>
                    <button type="button" className="button button--secondary button--small" disabled={working} aria-label={`Reject: ${memory.text}`} onClick={() => void rejectMemory(memory.user_memory_id)}>
                      <Icon name="close" size={16} /> Reject
                    </button>
                  </>
                )}
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
