import { dueNotifications, useReminderActions, useReminders } from '../hooks/reminderQueries';
import { formatDue } from './formatDue';

/** Reminders whose time has come, as notifications at the top of the page until dismissed. */
export function ReminderNotifications() {
  const { data } = useReminders();
  const { seen } = useReminderActions();
  const due = dueNotifications(data);
  if (!due.length) return null;
  return (
    <section className="reminder-notes" aria-label="Reminders">
      {due.map((reminder) => (
        <div key={reminder.reminder_id} className="notice notice--info reminder-note" role="status">
          <span>
            <strong>Reminder:</strong> {reminder.text} <span className="muted small">({formatDue(reminder)})</span>
          </span>
          <button type="button" className="link-button" onClick={() => seen.mutate(reminder.reminder_id)} disabled={seen.isPending}>
            Dismiss
          </button>
        </div>
      ))}
    </section>
  );
}
