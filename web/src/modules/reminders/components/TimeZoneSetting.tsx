import { browserTimeZone } from './formatDue';
import { useReminderActions, useReminderSettings } from '../hooks/reminderQueries';

const hhmm = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

/** The time zone reminders at a clock time are placed in (asked once, kept), and the quiet hours. */
export function TimeZoneSetting() {
  const { data: settings } = useReminderSettings();
  const { saveSettings } = useReminderActions();
  const browser = browserTimeZone();
  if (!settings) return null;
  return (
    <div className="reminder-settings">
      {settings.time_zone ? (
        <p>
          Your time zone: <strong>{settings.time_zone}</strong>
          {browser && browser !== settings.time_zone && (
            <button type="button" className="link-button" onClick={() => saveSettings.mutate({ time_zone: browser })}>
              Use {browser}
            </button>
          )}
        </p>
      ) : (
        <p className="notice notice--warning">
          Your time zone is not set yet, so the assistant will ask for it when you want a reminder at a clock time.
          {browser && (
            <button type="button" className="link-button" onClick={() => saveSettings.mutate({ time_zone: browser })}>
              Use {browser}
            </button>
          )}
        </p>
      )}
      <p className="muted small">
        Quiet hours: no reminder texts between {hhmm(settings.quiet_start_minute)} and {hhmm(settings.quiet_end_minute)} unless you asked
        for that time (a late one waits for the morning; it still shows here).
      </p>
    </div>
  );
}
