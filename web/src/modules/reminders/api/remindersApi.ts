import type { Reminder, ReminderSettings } from '@app/contracts/chat';
import { API } from '@app/contracts/gateway';
import { call } from '../../common/api/http';

export const FAILED_FETCH_REMINDERS = 'Failed to fetch reminders';

const item = (id: string) => ({ params: { reminder_id: id } });

/** GET /reminders/: pending ones by time, then the delivered and cancelled of the last 30 days. */
export const fetchReminders = (): Promise<Reminder[]> => call(API.reminders.list, {}, { orElse: [], failure: FAILED_FETCH_REMINDERS });

/** POST /reminders/ with the text and when (an instant with its offset, or words such as "in 20 minutes"). */
export const createReminder = (body: { text: string; when: string }): Promise<Reminder> => call(API.reminders.create, { body });

export const updateReminder = (id: string, body: { text?: string; when?: string }): Promise<Reminder> =>
  call(API.reminders.update, { ...item(id), body });

export const cancelReminder = (id: string): Promise<Reminder> => call(API.reminders.cancel, item(id));

export const markReminderSeen = (id: string): Promise<Reminder> => call(API.reminders.seen, item(id));

export const fetchReminderSettings = (): Promise<ReminderSettings | null> =>
  call(API.reminders.settings, {}, { orElse: null, failure: 'Failed to fetch reminder settings' });

export const saveReminderSettings = (body: { time_zone?: string; quiet_start_minute?: number; quiet_end_minute?: number }) =>
  call(API.reminders.updateSettings, { body });
