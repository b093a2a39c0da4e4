import { ShellPage } from '../modules/layout/components/ShellPage';
import { ReminderForm } from '../modules/reminders/components/ReminderForm';
import { ReminderList } from '../modules/reminders/components/ReminderList';
import { TimeZoneSetting } from '../modules/reminders/components/TimeZoneSetting';
import { useReminders } from '../modules/reminders/hooks/reminderQueries';
import { Spinner } from '../ui/Spinner';
import '../modules/reminders/components/reminders.css';

/** /reminders: set one, see what is coming and what came, cancel; the time zone they are placed in. */
export function RemindersPage() {
  const { data, status, error } = useReminders({ fresh: true });
  return (
    <ShellPage title="Reminders" className="reminders">
      <p className="muted">
        At its time a reminder comes by text message (when your account has a phone number) and here. You can also ask the assistant:
        “remind me tomorrow at 9 to call the dentist”, or text it.
      </p>
      <TimeZoneSetting />
      <ReminderForm />
      {status === 'pending' && <Spinner label="Loading reminders" />}
      {status === 'error' && (
        <p className="notice notice--error" role="alert">
          {error instanceof Error ? error.message : 'Failed to fetch reminders'}
        </p>
      )}
      {data && data.length === 0 && <p className="empty-state muted">No reminders yet.</p>}
      {data && data.length > 0 && <ReminderList reminders={data} />}
    </ShellPage>
  );
}
