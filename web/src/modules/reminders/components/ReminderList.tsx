import type { Reminder } from '@app/contracts/chat';
import { useState, type FormEvent } from 'react';
import { messageOf } from '../../common/utils/errors';
import { useReminderActions } from '../hooks/reminderQueries';
import { formatDue } from './formatDue';

/** An instant as the browser's `datetime-local` field shows it: the local date and time, to the minute. */
function localInput(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

type ReminderEditProps = { reminder: Reminder; onDone: () => void };

/** A pending reminder changed in place: its words, its time, or both (only what changed is sent). */
function ReminderEdit({ reminder, onDone }: ReminderEditProps) {
  const { update } = useReminderActions();
  const [text, setText] = useState(reminder.text);
  const [when, setWhen] = useState(localInput(reminder.due_at));
  const save = (event: FormEvent) => {
    event.preventDefault();
    const change: { id: string; text?: string; when?: string } = { id: reminder.reminder_id };
    if (text.trim() && text.trim() !== reminder.text) change.text = text.trim();
    if (when && when !== localInput(reminder.due_at)) change.when = new Date(when).toISOString();
    if (!change.text && !change.when) return onDone();
    update.mutate(change, { onSuccess: onDone });
  };
  return (
    <form className="reminder-form reminder-form--inline" onSubmit={save} aria-label={`Change the reminder: ${reminder.text}`}>
      <label className="field">
        <span className="field__label">Remind me to</span>
        <input value={text} maxLength={300} onChange={(e) => setText(e.target.value)} required />
      </label>
      <label className="field">
        <span className="field__label">When</span>
        <input type="datetime-local" value={when} onChange={(e) => setWhen(e.target.value)} required />
      </label>
      <button type="submit" className="button button--primary button--small" disabled={update.isPending}>
        Save
      </button>{' '}
      <button type="button" className="button button--secondary button--small" onClick={onDone} disabled={update.isPending}>
        Keep as it was
      </button>
      {update.error && (
        <p className="notice notice--error" role="alert">
          {messageOf(update.error)}
        </p>
      )}
    </form>
  );
}

const TEXT_STATUS: Record<NonNullable<Reminder['text_status']>, string> = {
  queued: 'texted',
  duplicate: 'texted',
  no_number: 'not texted: no phone number',
  opted_out: 'not texted: you said STOP',
  over_allowance: "not texted: this month's texts are used up",
  refused: 'not texted',
};

type ReminderListProps = { reminders: Reminder[] };

/** Pending reminders (changed in place, cancellable), then the recent delivered and cancelled ones. */
export function ReminderList({ reminders }: ReminderListProps) {
  const { cancel } = useReminderActions();
  const [editing, setEditing] = useState<string | null>(null);
  return (
    <ul className="reminder-list" aria-label="Your reminders">
      {reminders.map((r) => (
        <li key={r.reminder_id} className="reminder-item" data-status={r.status}>
          {editing === r.reminder_id && r.status === 'pending' ? (
            <ReminderEdit reminder={r} onDone={() => setEditing(null)} />
          ) : (
            <>
              <div className="reminder-item__main">
                <span className="reminder-item__text">{r.text}</span>
                <span className="muted small">
                  {formatDue(r)} · {r.status === 'delivered' ? `delivered, ${TEXT_STATUS[r.text_status ?? 'refused']}` : r.status}
                </span>
              </div>
              {r.status === 'pending' && (
                <span className="reminder-item__actions">
                  <button
                    type="button"
                    className="button button--secondary button--small"
                    aria-label={`Change the reminder: ${r.text}`}
                    onClick={() => setEditing(r.reminder_id)}
                  >
                    Change
                  </button>{' '}
                  <button
                    type="button"
                    className="button button--secondary button--small"
                    aria-label={`Cancel the reminder: ${r.text}`}
                    disabled={cancel.isPending}
                    onClick={() => cancel.mutate(r.reminder_id)}
                  >
                    Cancel
                  </button>
                </span>
              )}
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
