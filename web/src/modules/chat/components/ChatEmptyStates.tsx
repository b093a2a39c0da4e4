import { Link } from 'react-router';
import { Spinner } from '../../../ui/Spinner';
import { useAuth } from '../../auth/state/authStore';

const SUGGESTIONS = [
  'Plan a relaxed weekend in Lisbon',
  'Explain how vaccines train the immune system',
  'Write a polite reminder about an unpaid invoice',
  'Give me a 20-minute dinner idea with chickpeas',
];

type ChatWelcomeProps = { disabled: boolean; onPick: (suggestion: string) => void };

/** An empty conversation: a greeting (by first name once known) and a few things to ask. */
export function ChatWelcome({ disabled, onPick }: ChatWelcomeProps) {
  const name = useAuth((s) => (s.user?.is_anon ? null : s.user?.name));
  return (
    <div className="empty-state empty-state--welcome">
      <h2>{name ? `How can I help, ${name.split(' ')[0]}?` : 'How can I help?'}</h2>
      <ul className="suggestions" aria-label="Suggestions">
        {SUGGESTIONS.map((suggestion) => (
          <li key={suggestion}>
            <button type="button" className="suggestion" disabled={disabled} onClick={() => onPick(suggestion)}>
              {suggestion}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A conversation that is not there (deleted, or another user's). */
export function ConversationNotFound() {
  return (
    <div className="empty-state">
      <h2>This conversation could not be found</h2>
      <p className="muted">It may have been deleted.</p>
      <Link className="button button--primary" to="/chat">
        Start a new chat
      </Link>
    </div>
  );
}

export function MessagesLoading() {
  return (
    <div className="empty-state">
      <Spinner label="Loading messages" />
    </div>
  );
}
