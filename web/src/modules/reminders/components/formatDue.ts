import type { Reminder } from '@app/contracts/chat';

/** A reminder's time as the reader's browser shows dates, and how late it came when it was. */
export function formatDue(reminder: Pick<Reminder, 'due_at' | 'late_by_seconds'>, locale?: string): string {
  const when = new Date(reminder.due_at).toLocaleString(locale, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  });
  const late = reminder.late_by_seconds ?? 0;
  return late >= 120 ? `${when}, came ${Math.round(late / 60)} min late` : when;
}

/** The browser's own time zone (offered to a user whose time zone is not known yet). */
export const browserTimeZone = (): string | null => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
};
