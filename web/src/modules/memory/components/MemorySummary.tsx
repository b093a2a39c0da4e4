import { Link } from 'react-router';
import { Spinner } from '../../../ui/Spinner';
import { useMemories } from '../hooks/memoryQueries';
import { MemoryLoadError } from './MemoryLoadError';
import './memories.css';

const things = (n: number) => (n === 1 ? '1 thing' : `${n} things`);

/** The settings' memories section: how many there are, how many guesses wait, and the way to the page. */
export function MemorySummary() {
  const { items, status, error, guesses, reload } = useMemories(null);
  return (
    <div className="memory-summary">
      {status === 'error' ? (
        <MemoryLoadError error={error} onRetry={reload} />
      ) : status !== 'ready' ? (
        <Spinner label="Loading memories" />
      ) : (
        <p>
          {items.length === 0
            ? 'The assistant does not remember anything about you yet.'
            : `The assistant remembers ${things(items.length)} about you.`}
          {guesses > 0 && <strong> {guesses === 1 ? '1 guess is' : `${guesses} guesses are`} waiting for your confirmation.</strong>}
        </p>
      )}
      <Link className="button button--secondary" to="/memories">
        Review your memories
      </Link>
    </div>
  );
}
