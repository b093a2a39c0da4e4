import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { PublicPage } from '../modules/layout/components/PublicPage';

export const ABOUT_URL: string = import.meta.env.VITE_ABOUT_URL || 'https://assistant.example/about';

/** The way back to the chat from an information page. */
function ToChat({ label }: { label: string }) {
  return (
    <p>
      <Link to="/chat" className="button button--primary">
        {label}
      </Link>
    </p>
  );
}

export function NotFoundPage() {
  return (
    <PublicPage title="Page not found">
      <p>There is nothing at this address. It may have moved, or the link may be mistyped.</p>
      <ToChat label="Back to the assistant" />
    </PublicPage>
  );
}

export function ShareNotFoundPage() {
  const { chatId } = useParams();
  return (
    <PublicPage title="Shared conversation not found">
      <p>
        This shared conversation{' '}
        {chatId ? (
          <>
            (<code>{chatId}</code>){' '}
          </>
        ) : null}
        does not exist any more. Its owner may have deleted it or stopped sharing it.
      </p>
      <ToChat label="Start your own conversation" />
    </PublicPage>
  );
}

/** /about: the company's about site (VITE_ABOUT_URL at build time). */
export function AboutPage() {
  useEffect(() => {
    window.location.replace(ABOUT_URL);
  }, []);
  return (
    <PublicPage title="About">
      <p>
        Taking you to <a href={ABOUT_URL}>{ABOUT_URL}</a>…
      </p>
    </PublicPage>
  );
}

export function JobsPage() {
  return (
    <PublicPage title="Jobs" subtitle="Help build an assistant people trust with their day.">
      <section className="prose">
        <p>
          We are a small team working on a personal assistant that remembers what matters, respects privacy, and is there on the web and by
          text.
        </p>
        <h2>Open roles</h2>
        <p>
          There are no open roles right now. We still like to hear from engineers, designers and writers who care about careful, humane
          software.
        </p>
        <p>
          Write to <a href="mailto:jobs@assistant.example">jobs@assistant.example</a> with a few lines about you and something you made.
        </p>
      </section>
    </PublicPage>
  );
}

export function SuggestedQueriesPage() {
  const ideas = [
    'Summarise this week’s news about renewable energy',
    'Help me plan meals for the next five days',
    'Draft a friendly message declining an invitation',
    'What should I pack for three days of hiking in May?',
    'Explain compound interest with a simple example',
    'Make a checklist for moving to a new flat',
  ];
  return (
    <PublicPage title="Suggested questions" subtitle="A few ideas to start a conversation.">
      <ul className="suggestions">
        {ideas.map((prompt) => (
          <li key={prompt}>
            <Link className="suggestion" to="/chat" state={{ prompt }}>
              {prompt}
            </Link>
          </li>
        ))}
      </ul>
    </PublicPage>
  );
}
