import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { PublicPage } from '../ui/PublicPage';

export const ABOUT_URL: string = import.meta.env.VITE_ABOUT_URL || 'https://assistant.example/about';

export function NotFoundPage() {
  return (
    <PublicPage title="Page not found">
      <p>There is nothing at this address. It may have moved, or the link may be mistyped.</p>
      <p>
        <Link to="/chat" className="button button--primary">Back to the assistant</Link>
      </p>
    </PublicPage>
  );
}

export function ShareNotFoundPage() {
  const { chatId } = useParams();
  return (
    <PublicPage title="Shared conversation not found">
      <p>
        This shared conversation {chatId ? <>(<code>{chatId}</code>) </> : null}does not exist any more. Its owner may have deleted it or stopped sharing it.
      </p>
      <p>
        <Link to="/chat" className="button button--primary">Start your own conversation</Link>
      </p>
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

export function TextPage() {
  return (
    <PublicPage title="Text the assistant" subtitle="The same assistant, by text message: no app, no browser.">
      <section className="prose">
        <h2>How it works</h2>
        <ul>
          <li>Send a text to the assistant's number and it replies within seconds. An account is created for your mobile number automatically the first time.</li>
          <li>Add the assistant to a group text and mention it to ask something on behalf of the group.</li>
          <li>Sign in on the web with the same number to see your text conversations and the memories the assistant keeps.</li>
        </ul>
        <h2>Stopping and limits</h2>
        <ul>
          <li>Text <strong>STOP</strong> at any time and the assistant stops replying. Text <strong>START</strong> to resume.</li>
          <li>We send a short notice when your credit runs low and when you near the monthly text limit.</li>
          <li>Message and data rates of your carrier may apply.</li>
        </ul>
        <p>
          The <Link to="/terms">Terms of Use</Link> and the <Link to="/privacy">Privacy Policy</Link> apply to texts as they do to the web portal. You must be 18 or older.
        </p>
      </section>
    </PublicPage>
  );
}

export function JobsPage() {
  return (
    <PublicPage title="Jobs" subtitle="Help build an assistant people trust with their day.">
      <section className="prose">
        <p>We are a small team working on a personal assistant that remembers what matters, respects privacy, and is there on the web and by text.</p>
        <h2>Open roles</h2>
        <p>There are no open roles right now. We still like to hear from engineers, designers and writers who care about careful, humane software.</p>
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

export function GroupSearchPage() {
  const { channelUrl } = useParams();
  return (
    <PublicPage title="Group chat search" subtitle="Coming soon">
      <p>Searching the conversations of a group text{channelUrl ? <> (<code>{channelUrl}</code>)</> : null} is on its way. Until then, the group’s messages are in your text app.</p>
      <p>
        <Link to="/chat" className="button button--primary">Back to the assistant</Link>
      </p>
    </PublicPage>
  );
}

export function GroupInvitePage() {
  const { groupChannelInviteLinkId = '' } = useParams();
  return (
    <PublicPage title="You are invited" subtitle="Someone invited you to use the assistant with their group.">
      <div className="card">
        <p>Sign in with your mobile number to accept the invitation. The invitation is used up when you sign in with it.</p>
        <Link to={`/login?invite=${encodeURIComponent(groupChannelInviteLinkId)}`} className="button button--primary button--block">
          Accept and sign in
        </Link>
      </div>
    </PublicPage>
  );
}
