import { useState, type FormEvent } from 'react';
import { messageOf } from '../../common/utils/errors';
import { useReminderActions } from '../hooks/reminderQueries';

/** Sets a reminder: what, and when (the browser's date-time picker, sent as an instant with its offset). */
export function ReminderForm() {
  const { create } = useReminderActions();
  const [text, setText] = useState('');
  const [when, setWhen] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim() || !when) return;
    create.mutate({ text: text.trim(), when: new Date(when).toISOString() }, { onSuccess: () => (setText(''), setWhen('')) });
  };
  return (
    <form className="reminder-form" onSubmit={submit} aria-label="New reminder">
      <label className="field">
        <span className="field__label">Remind me to</span>
        <input value={text} maxLength={300} onChange={(e) => setText(e.target.value)} placeholder="call the dentist" required />
      </label>
      <label className="field">
        <span className="field__label">When</span>
        <input type="datetime-local" value={when} onChange={(e) => setWhen(e.target.value)} required />
      </label>
      <button type="submit" className="button button--primary" disabled={create.isPending}>
        Set reminder
      </button>
      {create.error && (
        <p className="notice notice--error" role="alert">
          {messageOf(create.error)}
        </p>
      )}
    </form>
  );
}
