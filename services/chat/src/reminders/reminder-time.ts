import * as chrono from 'chrono-node';
import { DateTime } from 'luxon';

/** Why a time could not be understood, in words the model or the page can pass on. */
export class ReminderTimeError extends Error {
  constructor(
    message: string,
    /** The time is a clock time and the user's time zone is not known yet. */
    readonly needsTimeZone = false,
  ) {
    super(message);
    this.name = 'ReminderTimeError';
  }
}

/** An instant with its offset: 2026-11-27T09:00:00Z, 2026-11-27T09:00+01:00. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;
/** Words that only count from now ("in 20 minutes", "in an hour"): no time zone needed. */
const RELATIVE =
  /^\s*(in|after)\s+(\d+|a|an|one|two|three|four|five|six|ten|fifteen|twenty|thirty|forty|fifty|half an?)\b[^,]*\b(sec|second|min|minute|hour|hr|day|week)s?\b\s*$/i;

export const NEEDS_TIME_ZONE =
  "The user's time zone is not known yet, so a clock time cannot be placed. Ask the user which time zone they are in " +
  '(a city is enough), save it with set_time_zone, then set the reminder again.';

/**
 * When a reminder is due: an instant with its offset, a local date-time or words ("tomorrow at
 * 9", "at 5 pm", "Friday at noon") read in the user's time zone, or words that count from now
 * ("in 20 minutes"), which need no zone. chrono-node reads the words; luxon places a local time
 * in its zone (daylight saving included).
 */
export function resolveWhen(when: string, now: Date, zone: string | null): { dueAt: Date; zone: string | null } {
  const text = when.trim();
  if (INSTANT.test(text)) {
    const instant = new Date(text);
    if (Number.isNaN(instant.getTime())) throw new ReminderTimeError(`"${text}" is not a valid time.`);
    return { dueAt: instant, zone: null };
  }
  if (RELATIVE.test(text)) {
    const parsed = chrono.parse(text, { instant: now, timezone: 0 }, { forwardDate: true })[0];
    if (!parsed || parsed.index !== 0) throw new ReminderTimeError(`"${text}" is not a time I can read.`);
    return { dueAt: parsed.start.date(), zone: null };
  }
  if (!zone) throw new ReminderTimeError(NEEDS_TIME_ZONE, true);
  // Read the words against the local wall clock (as if it were UTC), then place that wall time in the zone.
  const local = DateTime.fromJSDate(now, { zone });
  const wall = new Date(Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second));
  const parsed = chrono.parse(text, { instant: wall, timezone: 0 }, { forwardDate: true })[0];
  if (!parsed) throw new ReminderTimeError(`"${text}" is not a time I can read. Give a date and time, such as "tomorrow at 9".`);
  const at = parsed.start.date();
  const placed = DateTime.fromObject(
    {
      year: at.getUTCFullYear(),
      month: at.getUTCMonth() + 1,
      day: at.getUTCDate(),
      hour: at.getUTCHours(),
      minute: at.getUTCMinutes(),
      second: parsed.start.isCertain('second') ? at.getUTCSeconds() : 0,
    },
    { zone },
  );
  if (!placed.isValid) throw new ReminderTimeError(`"${text}" is not a time that exists in ${zone}.`);
  return { dueAt: placed.toJSDate(), zone };
}

/** Whether a local minute of the day is within quiet hours (start inclusive, end exclusive; over midnight when start > end). */
export function inQuietHours(minuteOfDay: number, start: number, end: number): boolean {
  if (start === end) return false;
  return start < end ? minuteOfDay >= start && minuteOfDay < end : minuteOfDay >= start || minuteOfDay < end;
}

export function localMinute(at: Date, zone: string): number {
  const local = DateTime.fromJSDate(at, { zone });
  return local.hour * 60 + local.minute;
}

/** The next end of quiet hours after `now`, in the zone. */
export function quietHoursEnd(now: Date, zone: string, end: number): Date {
  const local = DateTime.fromJSDate(now, { zone });
  let at = local.set({ hour: Math.floor(end / 60), minute: end % 60, second: 0, millisecond: 0 });
  if (at <= local) at = at.plus({ days: 1 });
  return at.toJSDate();
}

/** A time as people read it: "Fri 27 Nov, 09:00" in the zone (UTC when none is known). */
export function formatLocal(at: Date, zone: string | null): string {
  const local = DateTime.fromJSDate(at, { zone: zone ?? 'UTC' });
  return `${local.toFormat('ccc d LLL, HH:mm')}${zone ? '' : ' UTC'}`;
}

/** A delay in words: "2 h 5 min", "40 min", "1 day 3 h". */
export function formatDelay(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  const parts = [
    days ? `${days} day${days > 1 ? 's' : ''}` : '',
    hours ? `${hours} h` : '',
    rest || (!days && !hours) ? `${rest} min` : '',
  ];
  return parts.filter(Boolean).join(' ');
}

/** Whether the runtime knows this IANA zone. */
export function isKnownZone(zone: string): boolean {
  return DateTime.local().setZone(zone).isValid;
}
