import { z } from 'zod';
import { defineRpc } from '../common/contract';

// ---- Reminders (issue 26): set by the model's set_reminder tool or in the portal, delivered by text and in the portal ----

const id = z.uuid({ message: 'must be an id (UUID)' });

/** An IANA time zone name (Europe/London, America/New_York); checked against the runtime's zone database by the chat service. */
export const TimeZoneSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_+\-/]+$/, 'must be a time zone such as Europe/London');

/**
 * `pending` until its time, then `delivered` (in the portal, and by text when the account has a
 * number that has not opted out), or `cancelled`. `text_status` says what became of the text:
 * `queued` (handed to the text channel), `no_number`, `opted_out`, `over_allowance`, `refused`.
 */
export const REMINDER_STATUSES = ['pending', 'delivered', 'cancelled'] as const;
export const REMINDER_TEXT_STATUSES = ['queued', 'duplicate', 'no_number', 'opted_out', 'over_allowance', 'refused'] as const;

export const ReminderSchema = z.object({
  reminder_id: z.string(),
  text: z.string(),
  due_at: z.string(),
  /** The zone its time was given in (null: given relative to now, or as an instant). */
  time_zone: z.string().nullable(),
  /** May go by text during quiet hours (the user asked for that time). */
  quiet_hours_ok: z.boolean(),
  status: z.enum(REMINDER_STATUSES),
  /** Where it was set: a reply in the portal, a text, or the Reminders page. */
  source: z.enum(['chat', 'portal']),
  /** When the portal was told (its time came; a text put off by quiet hours is still pending). */
  notified_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  /** Seconds after its time it was delivered (0 when on time). */
  late_by_seconds: z.number().int().nullable(),
  text_status: z.enum(REMINDER_TEXT_STATUSES).nullable(),
  /** Its portal notification was dismissed. */
  seen: z.boolean(),
  created_at: z.string(),
});
export type Reminder = z.infer<typeof ReminderSchema>;

const reminderText = z.string().trim().min(1, 'must not be empty').max(300);
/**
 * When: an instant with its offset (`2026-11-27T09:00:00+01:00`), a local date-time in the user's
 * time zone (`2026-11-27T09:00`), or words (`tomorrow at 9`, `in 20 minutes`).
 */
const when = z.string().trim().min(1, 'must not be empty').max(100);

export const CreateReminderBodySchema = z.object({ text: reminderText, when, quiet_hours_ok: z.boolean().optional() });
export const UpdateReminderBodySchema = z
  .object({ text: reminderText.optional(), when: when.optional(), quiet_hours_ok: z.boolean().optional() })
  .refine((b) => b.text !== undefined || b.when !== undefined || b.quiet_hours_ok !== undefined, 'give text, when or quiet_hours_ok');
export const ReminderParamsSchema = z.object({ reminder_id: id });

/** Minutes after midnight, local time. */
const minuteOfDay = z.number().int().min(0).max(1439);
export const ReminderSettingsSchema = z.object({
  /** The user's time zone, asked once and kept (null until known). */
  time_zone: z.string().nullable(),
  /** No texts between these (local time) unless the reminder was asked for that time. */
  quiet_start_minute: minuteOfDay,
  quiet_end_minute: minuteOfDay,
});
export type ReminderSettings = z.infer<typeof ReminderSettingsSchema>;
export const UpdateReminderSettingsBodySchema = z
  .object({ time_zone: TimeZoneSchema.optional(), quiet_start_minute: minuteOfDay.optional(), quiet_end_minute: minuteOfDay.optional() })
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'give time_zone, quiet_start_minute or quiet_end_minute');

/** The reminders' calls, answered by the chat service (which owns them: see the README). */
export const REMINDER_RPC = {
  list: defineRpc({
    subject: 'chat.reminder.list',
    request: z.object({}).strict(),
    response: z.array(ReminderSchema),
    description: "The caller's reminders: pending ones by time, then the delivered and cancelled of the last 30 days, newest first",
  }),
  create: defineRpc({
    subject: 'chat.reminder.create',
    request: CreateReminderBodySchema.strict(),
    response: ReminderSchema,
    description: 'Set a reminder',
  }),
  update: defineRpc({
    subject: 'chat.reminder.update',
    request: z
      .object({ reminder_id: id, text: reminderText.optional(), when: when.optional(), quiet_hours_ok: z.boolean().optional() })
      .strict(),
    response: ReminderSchema,
    description: 'Change a pending reminder',
  }),
  cancel: defineRpc({
    subject: 'chat.reminder.cancel',
    request: z.object({ reminder_id: id }).strict(),
    response: ReminderSchema,
    description: 'Cancel a pending reminder',
  }),
  seen: defineRpc({
    subject: 'chat.reminder.seen',
    request: z.object({ reminder_id: id }).strict(),
    response: ReminderSchema,
    description: "Dismiss a delivered reminder's notification in the portal",
  }),
  settings: defineRpc({
    subject: 'chat.reminder.settings.get',
    request: z.object({}).strict(),
    response: ReminderSettingsSchema,
    description: "The caller's time zone and quiet hours",
  }),
  updateSettings: defineRpc({
    subject: 'chat.reminder.settings.update',
    request: z
      .object({
        time_zone: TimeZoneSchema.optional(),
        quiet_start_minute: minuteOfDay.optional(),
        quiet_end_minute: minuteOfDay.optional(),
      })
      .strict(),
    response: ReminderSettingsSchema,
    description: "Set the caller's time zone or quiet hours",
  }),
} as const;
