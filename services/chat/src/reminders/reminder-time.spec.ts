import { formatDelay, formatLocal, inQuietHours, NEEDS_TIME_ZONE, quietHoursEnd, ReminderTimeError, resolveWhen } from './reminder-time';

// Thursday 26 November 2026, 14:30 UTC (14:30 in London, 09:30 in New York).
const NOW = new Date('2026-11-26T14:30:00Z');

describe('when a reminder is due', () => {
  it('reads words in the user time zone, daylight saving included', () => {
    expect(resolveWhen('at 5 pm', NOW, 'America/New_York').dueAt.toISOString()).toBe('2026-11-26T22:00:00.000Z');
    expect(resolveWhen('tomorrow at 9', NOW, 'Europe/London').dueAt.toISOString()).toBe('2026-11-27T09:00:00.000Z');
    expect(resolveWhen('tomorrow at 9', NOW, 'Europe/Paris').dueAt.toISOString()).toBe('2026-11-27T08:00:00.000Z');
    // Summer time in Paris: UTC+2.
    expect(resolveWhen('2027-07-01T09:00', NOW, 'Europe/Paris').dueAt.toISOString()).toBe('2027-07-01T07:00:00.000Z');
    // A clock time already past today is tomorrow's.
    expect(resolveWhen('at 9', NOW, 'Europe/London').dueAt.toISOString()).toBe('2026-11-27T09:00:00.000Z');
  });

  it('counts from now without a time zone, and takes an instant with its offset as it is', () => {
    expect(resolveWhen('in 20 minutes', NOW, null)).toEqual({ dueAt: new Date('2026-11-26T14:50:00Z'), zone: null });
    expect(resolveWhen('in 2 hours', NOW, null).dueAt.toISOString()).toBe('2026-11-26T16:30:00.000Z');
    expect(resolveWhen('2026-11-27T09:00:00+01:00', NOW, null).dueAt.toISOString()).toBe('2026-11-27T08:00:00.000Z');
  });

  it('asks for the time zone before placing a clock time, and refuses words it cannot read', () => {
    const unknown = (() => {
      try {
        resolveWhen('tomorrow at 9', NOW, null);
      } catch (error) {
        return error;
      }
    })() as ReminderTimeError;
    expect(unknown).toBeInstanceOf(ReminderTimeError);
    expect(unknown.needsTimeZone).toBe(true);
    expect(unknown.message).toBe(NEEDS_TIME_ZONE);
    expect(() => resolveWhen('whenever you like', NOW, 'Europe/London')).toThrow(ReminderTimeError);
  });
});

describe('quiet hours', () => {
  it('spans midnight when they start later than they end', () => {
    const [start, end] = [22 * 60, 8 * 60];
    expect(inQuietHours(23 * 60, start, end)).toBe(true);
    expect(inQuietHours(3 * 60, start, end)).toBe(true);
    expect(inQuietHours(8 * 60, start, end)).toBe(false);
    expect(inQuietHours(12 * 60, start, end)).toBe(false);
    expect(inQuietHours(12 * 60, 13 * 60, 14 * 60)).toBe(false);
    expect(inQuietHours(12 * 60, 0, 0)).toBe(false);
  });

  it('end at the next local end time', () => {
    expect(quietHoursEnd(new Date('2026-11-26T23:30:00Z'), 'Europe/London', 8 * 60).toISOString()).toBe('2026-11-27T08:00:00.000Z');
    expect(quietHoursEnd(new Date('2026-11-27T03:00:00Z'), 'Europe/London', 8 * 60).toISOString()).toBe('2026-11-27T08:00:00.000Z');
  });
});

describe('times and delays in words', () => {
  it('says them as people read them', () => {
    expect(formatLocal(new Date('2026-11-27T09:00:00Z'), 'Europe/London')).toBe('Fri 27 Nov, 09:00');
    expect(formatLocal(new Date('2026-11-27T09:00:00Z'), null)).toBe('Fri 27 Nov, 09:00 UTC');
    expect(formatDelay(125 * 60)).toBe('2 h 5 min');
    expect(formatDelay(40 * 60)).toBe('40 min');
    expect(formatDelay(27 * 3600)).toBe('1 day 3 h');
  });
});
