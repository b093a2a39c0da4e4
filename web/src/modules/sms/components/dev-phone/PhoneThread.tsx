import { useEffect, useRef } from 'react';
import { Spinner } from '../../../../ui/Spinner';
import type { ThreadItem } from '../../hooks/useDevPhone';
import { useSlowReply } from '../../hooks/useSlowReply';
import { formatPhone } from '../../utils/phone';

const time = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const at = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : time.format(date);
};

const PURPOSE_LABELS: Record<string, string> = { login_code: 'sign-in code · ', notice: 'notice · ', relay: 'group · ' };

function Bubble({ item, assistant }: { item: ThreadItem; assistant: string | null }) {
  const peer = item.peer && item.peer !== assistant ? formatPhone(item.peer) : null;
  return (
    <li className={`sms-bubble sms-bubble--${item.direction}`}>
      <span className="visually-hidden">{item.direction === 'out' ? 'You:' : 'Received:'}</span>
      <p className="sms-bubble__body">{item.body}</p>
      <span className="sms-bubble__meta">
        {peer ? `${item.direction === 'out' ? 'to' : 'from'} ${peer} · ` : ''}
        {(item.purpose && PURPOSE_LABELS[item.purpose]) ?? ''}
        <time dateTime={item.at}>{at(item.at)}</time>
      </span>
    </li>
  );
}

type PhoneThreadProps = { thread: ThreadItem[]; waiting: boolean; assistant: string | null };

/** The texts of the played number, newest at the bottom (kept in view), and what is awaited. */
export function PhoneThread({ thread, waiting, assistant }: PhoneThreadProps) {
  const end = useRef<HTMLLIElement>(null);
  const slow = useSlowReply(thread, waiting);
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [thread.length, waiting]);
  return (
    // Focusable: a thread longer than the screen scrolls, and the keyboard must reach it too.
    <div className="phone__thread" role="log" aria-label="Messages" aria-live="polite" tabIndex={0}>
      <ol className="phone__list">
        {thread.length === 0 && <li className="phone__empty muted">No texts yet. Say hello to the assistant.</li>}
        {thread.map((item) => (
          <Bubble key={item.id} item={item} assistant={assistant} />
        ))}
        {waiting && (
          <li className="phone__waiting muted small">
            <Spinner label="Waiting for the reply" /> Waiting for the reply…
          </li>
        )}
        {slow && (
          <li className="phone__slow muted small">
            Still nothing? The server may have refused this number (not a valid mobile number, a blocked region, or it texted STOP): its log
            says why.
          </li>
        )}
        <li ref={end} aria-hidden="true" className="phone__end" />
      </ol>
    </div>
  );
}
