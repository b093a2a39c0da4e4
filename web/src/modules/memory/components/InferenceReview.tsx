import type { UserMemory } from '@app/contracts/memory';
import { useState } from 'react';
import { Icon } from '../../../ui/Icon';
import { Spinner } from '../../../ui/Spinner';
import { useMemories, useMemoryActions, useMemoryBusy } from '../hooks/memoryQueries';
import { awaitsConfirmation } from '../utils/memoryRules';
import { GuessButtons } from './GuessButtons';
import { MemoryLoadError } from './MemoryLoadError';
import './memories.css';

/**
 * What the assistant guessed about the user (inferences not confirmed yet), to confirm or reject,
 * for the /confirm-memories step. Those confirmed here stay listed as confirmed.
 */
export function InferenceReview() {
  const { items, status, error, reload } = useMemories(null);
  const busy = useMemoryBusy();
  const actions = useMemoryActions();
  // Guesses confirmed in this visit stay in the list, marked as confirmed.
  const [confirmedHere, setConfirmedHere] = useState<string[]>([]);
  const loaded = status === 'ready' || (status === 'loading' && items.length > 0);
  const guesses = loaded ? items.filter((m) => awaitsConfirmation(m) || (m.is_inference && confirmedHere.includes(m.user_memory_id))) : [];
  // Shown confirmed at once (the focus moves on in the next frame); back to a guess if it fails.
  const isConfirmed = (memory: UserMemory) => memory.is_confirmed || confirmedHere.includes(memory.user_memory_id);
  const confirm = (id: string) => {
    setConfirmedHere((ids) => [...ids, id]);
    void actions.confirm(id).catch(() => setConfirmedHere((ids) => ids.filter((x) => x !== id)));
    // Its buttons go: the focus moves to the next guess, else to what follows the list.
    requestAnimationFrame(() =>
      document.querySelector<HTMLElement>('.inference-review [data-guess] button, #confirm-memories-continue')?.focus(),
    );
  };

  if (status === 'error') return <MemoryLoadError error={error} onRetry={reload} />;
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
            <li key={memory.user_memory_id} className="memory" data-guess={!isConfirmed(memory) || undefined}>
              <div className="memory__main">
                <p className="memory__text">{memory.text}</p>
              </div>
              <div className="memory__actions">
                {isConfirmed(memory) ? (
                  <span className="memory__done" role="status">
                    <Icon name="check" size={16} /> Confirmed
                  </span>
                ) : (
                  <GuessButtons memory={memory} disabled={working} onConfirm={() => confirm(memory.user_memory_id)} />
                )}
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
