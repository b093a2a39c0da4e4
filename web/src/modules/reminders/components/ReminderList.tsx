import type { Reminder } from '@app/contracts/chat';
import { useReminderActions } from '../hooks/reminderQueries';
import { formatDue } from './formatDue';

const TEXT_STATUS: Record<NonNullable<Reminder['text_status']>, string> = {
  queued: 'texted',
  duplicate: 'texted',
  no_number: 'not texted: no phone number',
  opted_out: 'not texted: you said STOP',
  over_allowance: "not texted: this month's texts are used up",
  refused: 'not texted',
};

type ReminderListProps = { reminders: Reminder[] };

/** Pending reminders (cancellable), then the recent delivered and cancelled ones. */
export function ReminderList({ reminders }: ReminderListProps) {
  const { cancel } = useReminderActions();
  return (
    <ul className="reminder-list" aria-label="Your reminders">
      {reminders.map((r) => (
        <li key={r.reminder_id} className="reminder-item" data-status={r.status}>
          <div className="reminder-item__main">
            <span className="reminder-item__text">{r.text}</span>
            <span className="muted small">
              {formatDue(r)} · {r.status === 'delivered' ? `delivered, ${TEXT_STATUS[r.text_status ?? 'refused']}` : r.status}
            </span>
          </div>
          {r.status === 'pending' && (
            <button
              type="button"
              className="button button--secondary button--small"
              aria-label={`Cancel the reminder: ${r.text}`}
              disabled={cancel.isPending}
              onClick={() => cancel.mutate(r.reminder_id)}
            >
              Cancel
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}
