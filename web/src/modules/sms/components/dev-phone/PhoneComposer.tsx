import { countSegments } from '@app/contracts/sms/segments';
import { useId, useState, type FormEvent } from 'react';
import { Spinner } from '../../../../ui/Spinner';

type PhoneComposerProps = {
  sending: boolean;
  maxSegments: number;
  /** Sends the text; `sent` is called once it went (the draft is cleared). */
  onSend: (body: string, sent: () => void) => void;
};

/** The text being written, with its length in texts (segments), sent with Enter or the button. */
export function PhoneComposer({ sending, maxSegments, onSend }: PhoneComposerProps) {
  const [draft, setDraft] = useState('');
  const messageId = useId();
  const countId = useId();
  const count = countSegments(draft);
  const send = (event?: FormEvent) => {
    event?.preventDefault();
    const body = draft.trim();
    if (!body || sending) return;
    onSend(body, () => setDraft(''));
  };
  return (
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
      <button type="submit" className="button button--primary" disabled={!draft.trim() || sending}>
        {sending ? <Spinner label="Sending" /> : 'Send'}
      </button>
      <small id={countId} className="muted small phone__count">
        {count.units === 0
          ? `Replies come back in at most ${maxSegments} ${maxSegments === 1 ? 'text' : 'texts'}.`
          : `${count.units} ${count.encoding === 'GSM-7' ? 'characters' : 'UCS-2 units'} · ${count.segments} ${count.segments === 1 ? 'text' : 'texts'} (${count.encoding})`}
      </small>
    </form>
  );
}
