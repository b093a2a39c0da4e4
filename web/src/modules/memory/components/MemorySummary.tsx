import { Link } from 'react-router';
import { Spinner } from '../../../ui/Spinner';
import { useLoadMemories } from '../hooks/useMemories';
import { awaitsConfirmation, useMemoryState } from '../state/memoryStore';
import './memories.css';

const things = (n: number) => (n === 1 ? '1 thing' : `${n} things`);

/** The settings' memories section: how many there are, how many guesses wait, and the way to the page. */
export function MemorySummary() {
  const { reload } = useLoadMemories(null);
  const scope = useMemoryState((s) => s.scope);
  const status = useMemoryState((s) => s.status);
  const error = useMemoryState((s) => s.error);
  const items = useMemoryState((s) => s.items);
  const ready = scope === '' && status === 'ready';
  const guesses = ready ? items.filter(awaitsConfirmation).length : 0;
  return (
    <div className="memory-summary">
      {scope === '' && status === 'error' ? (
        <p className="notice notice--error" role="alert">
          <span>{error}</span>
          <button type="button" className="link-button" onClick={reload}>
            Try again
          </button>
        </p>
      ) : !ready ? (
        <Spinner label="Loading memories" />
      ) : (
        <p>
          {items.length === 0 ? 'The assistant does not remember anything about you yet.' : `The assistant remembers ${things(items.length)} about you.`}
          {guesses > 0 && <strong> {guesses === 1 ? '1 guess is' : `${guesses} guesses are`} waiting for your confirmation.</strong>}
        </p>
      )}
      <Link className="button button--secondary" to="/memories">
        Review your memories
      </Link>
    </div>
  );
}
