import { Link, useSearchParams } from 'react-router';
import { useConversations } from '../modules/chat/hooks/chatQueries';
import { ShellPage } from '../modules/layout/components/ShellPage';
import { MemoryGroups } from '../modules/memory/components/MemoryGroups';
import { UndoBar } from '../modules/memory/components/UndoBar';
import { MemoryLoadError } from '../modules/memory/components/MemoryLoadError';
import { useMemories, useMemoryBusy } from '../modules/memory/hooks/memoryQueries';
import { Spinner } from '../ui/Spinner';
import '../modules/memory/components/memories.css';

/** /memories (all) and /memories?source_chat_id= (what one conversation left): review, edit, delete, confirm. */
export function MemoriesPage() {
  const [params] = useSearchParams();
  const chatId = params.get('source_chat_id')?.trim() || null;
  const { items: memories, status, error, guesses, reload } = useMemories(chatId);
  const busy = useMemoryBusy();
  const conversations = useConversations();
  const title = chatId ? (conversations.data?.find((c) => c.chat_id === chatId)?.conversation_title ?? null) : null;
  const loading = (status === 'loading' && memories.length === 0) || status === 'idle';

  return (
    <ShellPage title="Memories" className="memories" after={<UndoBar />}>
      <p className="memories__intro">
        What the assistant remembers about you, to make its replies personal. Edit or delete anything; confirm or reject what it guessed.
      </p>
      {chatId && (
        <p className="notice notice--info memories__scope">
          <span>
            From one conversation: <Link to={`/chat/${encodeURIComponent(chatId)}`}>{title ?? 'back to the conversation'}</Link>.
          </span>
          <Link to="/memories">Show all memories</Link>
        </p>
      )}
      {guesses > 0 && (
        <p className="notice notice--warning">
          {guesses === 1
            ? '1 guess is waiting for you to confirm or reject it.'
            : `${guesses} guesses are waiting for you to confirm or reject them.`}
        </p>
      )}
      {status === 'error' && <MemoryLoadError error={error} onRetry={reload} />}
      {loading ? (
        <div className="empty-state">
          <Spinner label="Loading memories" />
        </div>
      ) : status === 'ready' && memories.length === 0 ? (
        <div className="empty-state">
          <h2>{chatId ? 'Nothing remembered from this conversation' : 'No memories yet'}</h2>
          <p className="muted">
            Tell the assistant about yourself (“I moved to Lisbon”, “I’m vegetarian”) and what it keeps shows up here for you to review.
          </p>
          <Link className="button button--primary" to={chatId ? `/chat/${encodeURIComponent(chatId)}` : '/chat'}>
            {chatId ? 'Back to the conversation' : 'Start a conversation'}
          </Link>
        </div>
      ) : (
        memories.length > 0 && <MemoryGroups memories={memories} busy={busy} />
      )}
    </ShellPage>
  );
}
