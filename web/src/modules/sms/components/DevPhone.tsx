import { countSegments } from '@app/contracts/sms/segments';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import './sms.css';
import { Field } from '../../../ui/Field';
import { Spinner } from '../../../ui/Spinner';
import type { SmsServiceInfo } from '../api/smsApi';
import { useGroups } from '../hooks/smsQueries';
import { useDevPhone, type ThreadItem } from '../hooks/useDevPhone';
import { normalisePhone } from '@app/contracts/sms';
import { formatPhone, randomDevNumber } from '../utils/phone';

/** After this long without a reply, the thread says what may be wrong. */
const SLOW_REPLY_MS = 20_000;

const time = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const at = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : time.format(date);
};

/** The numbers this phone can text: the assistant, the caller's own groups, and every group number of the pool. */
function useDestinations(service: SmsServiceInfo): { value: string; label: string }[] {
  const { groups } = useGroups();
  const list: { value: string; label: string }[] = [];
  if (service.phone_number) list.push({ value: service.phone_number, label: 'The assistant' });
  const seen = new Set(list.map((d) => d.value));
  for (const group of groups) {
    if (!seen.has(group.phone_number)) list.push({ value: group.phone_number, label: group.name });
    seen.add(group.phone_number);
  }
  // A played number has its groups on numbers of the pool of its own: any of them may be the one.
  service.group_numbers.forEach((number, index) => {
    if (!seen.has(number)) list.push({ value: number, label: `Group number ${index + 1}` });
    seen.add(number);
  });
  return list;
}

function Bubble({ item, assistant }: { item: ThreadItem; assistant: string | null }) {
  const peer = item.peer && item.peer !== assistant ? formatPhone(item.peer) : null;
  return (
    <li className={`sms-bubble sms-bubble--${item.direction}`}>
      <span className="visually-hidden">{item.direction === 'out' ? 'You:' : 'Received:'}</span>
      <p className="sms-bubble__body">{item.body}</p>
      <span className="sms-bubble__meta">
        {peer ? `${item.direction === 'out' ? 'to' : 'from'} ${peer} · ` : ''}
        {item.purpose === 'login_code'
          ? 'sign-in code · '
          : item.purpose === 'notice'
            ? 'notice · '
            : item.purpose === 'relay'
              ? 'group · '
              : ''}
        <time dateTime={item.at}>{at(item.at)}</time>
      </span>
    </li>
  );
}

/** A phone-like thread to text the assistant as a chosen number, on a development server. */
export function DevPhone({ service }: { service: SmsServiceInfo }) {
  const phone = useDevPhone(true);
  const destinations = useDestinations(service);
  const [to, setTo] = useState(service.phone_number ?? '');
  const [toProblem, setToProblem] = useState<string | null>(null);
  const [draft, setDraft] = useState('');
  const [numberDraft, setNumberDraft] = useState(phone.number);
  const [numberProblem, setNumberProblem] = useState<string | null>(null);
  const messageId = useId();
  const countId = useId();
  const end = useRef<HTMLLIElement>(null);
  const count = countSegments(draft);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!phone.waiting) return;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [phone.waiting]);
  const lastSent = [...phone.thread].reverse().find((item) => item.direction === 'out');
  const slow = phone.waiting && lastSent !== undefined && now - Date.parse(lastSent.at) > SLOW_REPLY_MS;

  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [phone.thread.length, phone.waiting]);

  const changeNumber = (event: FormEvent) => {
    event.preventDefault();
    const checked = normalisePhone(numberDraft);
    if (!checked.ok) return setNumberProblem(checked.message);
    setNumberProblem(null);
    setNumberDraft(checked.e164);
    phone.setNumber(checked.e164);
  };
  const send = (event?: FormEvent) => {
    event?.preventDefault();
    const body = draft.trim();
    if (!body || phone.sending) return;
    let target: string | null = null;
    if (to.trim()) {
      const checked = normalisePhone(to);
      if (!checked.ok) return setToProblem(checked.message);
      target = checked.e164;
    }
    phone.send({ body, to: target }, { onSuccess: () => setDraft('') });
  };

  return (
    <div className="dev-phone">
      <form className="form dev-phone__number" onSubmit={changeNumber} noValidate>
        <Field label="Play the number" problem={numberProblem}>
          {(control) => (
            <input {...control} type="tel" inputMode="tel" value={numberDraft} onChange={(event) => setNumberDraft(event.target.value)} />
          )}
        </Field>
        <div className="form__actions form__actions--start">
          <button type="submit" className="button button--secondary">
            Use this number
          </button>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => {
              const next = randomDevNumber();
              setNumberDraft(next);
              setNumberProblem(null);
              phone.setNumber(next);
            }}
          >
            New random number
          </button>
        </div>
        <Field label="Text to" hint={toProblem ? undefined : 'The assistant’s number, or a group text’s number.'} problem={toProblem}>
          {(control) => (
            <>
              <input
                {...control}
                type="tel"
                inputMode="tel"
                list={`${control.id}-known`}
                value={to}
                placeholder="The assistant's number"
                onChange={(event) => {
                  setTo(event.target.value);
                  setToProblem(null);
                }}
              />
              <datalist id={`${control.id}-known`}>
                {destinations.map((d) => (
                  <option key={d.value} value={d.value} label={d.label} />
                ))}
              </datalist>
            </>
          )}
        </Field>
      </form>

      {phone.closed && (
        <p className="notice notice--warning" role="status">
          The development inbox is closed on this server (DEV_SMS_INBOX off, or Twilio configured): replies will not show here.
        </p>
      )}
      <section className="phone" aria-label={`Phone ${formatPhone(phone.number)}`}>
        <header className="phone__bar">
          <span className="phone__peer">{to ? formatPhone(to) : 'Assistant'}</span>
          <span className="muted small">as {formatPhone(phone.number)}</span>
        </header>
        {/* Focusable: a thread longer than the screen scrolls, and the keyboard must reach it too. */}
        <div className="phone__thread" role="log" aria-label="Messages" aria-live="polite" tabIndex={0}>
          <ol className="phone__list">
            {phone.thread.length === 0 && <li className="phone__empty muted">No texts yet. Say hello to the assistant.</li>}
            {phone.thread.map((item) => (
              <Bubble key={item.id} item={item} assistant={service.phone_number} />
            ))}
            {phone.waiting && (
              <li className="phone__waiting muted small">
                <Spinner label="Waiting for the reply" /> Waiting for the reply…
              </li>
            )}
            {slow && (
              <li className="phone__slow muted small">
                Still nothing? The server may have refused this number (not a valid mobile number, a blocked region, or it texted STOP): its
                log says why.
              </li>
            )}
            <li ref={end} aria-hidden="true" className="phone__end" />
          </ol>
        </div>
        {(phone.loadError || phone.sendError) && (
          <p className="notice notice--error phone__notice" role="alert">
            {phone.sendError ?? phone.loadError}
          </p>
        )}
        <form className="phone__composer" onSubmit={send}>
          <label htmlFor={messageId} className="visually-hidden">
            Text message
          </label>
          <textarea
            id={messageId}
            rows={2}
            value={draft}
            placeholder="Text message"
            aria-describedby={countId}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
                event.preventDefault();
                send();
              }
            }}
          />
          <button type="submit" className="button button--primary" disabled={!draft.trim() || phone.sending}>
            {phone.sending ? <Spinner label="Sending" /> : 'Send'}
          </button>
          <small id={countId} className="muted small phone__count">
            {count.units === 0
              ? `Replies come back in at most ${service.max_segments} ${service.max_segments === 1 ? 'text' : 'texts'}.`
              : `${count.units} ${count.encoding === 'GSM-7' ? 'characters' : 'UCS-2 units'} · ${count.segments} ${count.segments === 1 ? 'text' : 'texts'} (${count.encoding})`}
          </small>
        </form>
      </section>
    </div>
  );
}
