import { useState, type FormEvent } from 'react';
import { messageOf } from '../../common/utils/errors';
import { browserTimeZone } from './formatDue';
import { useReminderActions, useReminderSettings } from '../hooks/reminderQueries';

const hhmm = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
/** `22:30` → 1350 (minutes after midnight). */
const minuteOf = (value: string) => {
  const [h, m] = value.split(':').map(Number);
  return h * 60 + m;
};

type QuietHoursProps = { start: number; end: number };

/** The quiet hours, changed with two time fields (local time; the end may be on the next morning). */
function QuietHours({ start, end }: QuietHoursProps) {
  const { saveSettings } = useReminderActions();
  const [from, setFrom] = useState(hhmm(start));
  const [to, setTo] = useState(hhmm(end));
  const save = (event: FormEvent) => {
    event.preventDefault();
    saveSettings.mutate({ quiet_start_minute: minuteOf(from), quiet_end_minute: minuteOf(to) });
  };
  const changed = from !== hhmm(start) || to !== hhmm(end);
  return (
    <form className="reminder-quiet" onSubmit={save} aria-label="Quiet hours">
      <label className="field">
        <span className="field__label">Quiet from</span>
        <input type="time" value={from} onChange={(e) => setFrom(e.target.value)} required />
      </label>
      <label className="field">
        <span className="field__label">until</span>
        <input type="time" value={to} onChange={(e) => setTo(e.target.value)} required />
      </label>
      <button type="submit" className="button button--secondary button--small" disabled={!changed || saveSettings.isPending}>
        Save quiet hours
      </button>
      {saveSettings.error && (
        <p className="notice notice--error" role="alert">
          {messageOf(saveSettings.error)}
        </p>
      )}
    </form>
  );
}

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
      <QuietHours
        key={`${settings.quiet_start_minute}-${settings.quiet_end_minute}`}
        start={settings.quiet_start_minute}
        end={settings.quiet_end_minute}
      />
    </div>
  );
}
