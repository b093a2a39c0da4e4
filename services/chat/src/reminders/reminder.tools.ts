import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import type { Reminder } from '@app/contracts/chat';
import { DomainError } from '@app/platform';
import { DateTime } from 'luxon';
import { z } from 'zod';
import { ToolRefusal, type ChatTool, type ToolCallContext, type ToolResult } from '../tools/chat-tool';
import { formatLocal } from './reminder-time';
import { RemindersService } from './reminders.service';

/** A refusal of the service (bad time, not found, too many) told to the model as the tool's refusal. */
async function refusingDomainErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError && error.status < 500) throw new ToolRefusal(error.detail);
    throw error;
  }
}

const shown = (r: Reminder) => ({
  reminder_id: r.reminder_id,
  text: r.text,
  due: formatLocal(new Date(r.due_at), r.time_zone),
  due_at: r.due_at,
});

const SetArgs = z.object({
  text: z.string().trim().min(1).max(300).describe('What to remind the user of, as they would like to read it ("call the dentist")'),
  when: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .describe(
      'When: the user\'s own words ("tomorrow at 9", "in 20 minutes", "Friday at noon"), a local date-time in the user\'s time zone (2026-11-27T09:00), or an instant with its offset',
    ),
  quiet_hours_ok: z.boolean().optional().describe('True only when the user asks to be texted during the night'),
});

/** Sets a reminder, delivered by text (when the user has a number) and in the portal at its time. */
@Injectable()
export class SetReminderTool implements ChatTool<z.infer<typeof SetArgs>> {
  readonly name = 'set_reminder';
  readonly description =
    'Set a reminder for the user. At its time it is sent to them by text message (when they have a phone number with the service) and shown in the portal.';
  readonly parameters = SetArgs;

  constructor(@Inject(RemindersService) private readonly reminders: Pick<RemindersService, 'create' | 'settingsOf'>) {}

  label(): string {
    return 'Setting a reminder';
  }

  async run(args: z.infer<typeof SetArgs>, context: ToolCallContext): Promise<ToolResult> {
    const reminder = await refusingDomainErrors(() =>
      this.reminders.create(context.caller, args, { source: 'chat', chatId: context.chatId }),
    );
    const view = shown(reminder);
    return { output: JSON.stringify({ set: true, ...view }), summary: `${view.due}: ${reminder.text}` };
  }

  /** The user's time zone and local time, or that it is not known yet (the model asks once). */
  async instructions(caller: Caller): Promise<string | null> {
    if (!caller.user_id) return null;
    const { time_zone: zone } = await this.reminders.settingsOf(caller.user_id);
    if (!zone)
      return "The user's time zone is not known yet: when they want a reminder at a clock time, ask which time zone (or city) they are in, once, and save it with set_time_zone.";
    const now = DateTime.now().setZone(zone);
    return `The user's time zone is ${zone}; it is ${now.toFormat('cccc d LLLL yyyy, HH:mm')} there.`;
  }
}

const NoArgs = z.object({});

/** The user's pending reminders. */
@Injectable()
export class ListRemindersTool implements ChatTool<z.infer<typeof NoArgs>> {
  readonly name = 'list_reminders';
  readonly description = "The user's pending reminders, soonest first, with their ids.";
  readonly parameters = NoArgs;

  constructor(@Inject(RemindersService) private readonly reminders: Pick<RemindersService, 'list'>) {}

  label(): string {
    return 'Checking your reminders';
  }

  async run(_args: z.infer<typeof NoArgs>, context: ToolCallContext): Promise<ToolResult> {
    const pending = (await this.reminders.list(context.caller)).filter((r) => r.status === 'pending').map(shown);
    return { output: JSON.stringify({ reminders: pending }), summary: `${pending.length} pending` };
  }
}

const CancelArgs = z
  .object({
    reminder_id: z.uuid().optional().describe('The id of the reminder to cancel (from list_reminders)'),
    matching: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .describe('Words of the reminder to cancel ("dentist"), when its id is not known'),
  })
  .refine((a) => a.reminder_id || a.matching, 'give reminder_id or matching');

/** Cancels a pending reminder, by id or by its words ("cancel my dentist reminder"). */
@Injectable()
export class CancelReminderTool implements ChatTool<z.infer<typeof CancelArgs>> {
  readonly name = 'cancel_reminder';
  readonly description = 'Cancel one of the user\'s pending reminders, by its id or by words of its text ("dentist").';
  readonly parameters = CancelArgs;

  constructor(@Inject(RemindersService) private readonly reminders: Pick<RemindersService, 'list' | 'cancel'>) {}

  label(): string {
    return 'Cancelling a reminder';
  }

  async run(args: z.infer<typeof CancelArgs>, context: ToolCallContext): Promise<ToolResult> {
    let id = args.reminder_id;
    if (!id) {
      const words = (args.matching ?? '')
        .toLowerCase()
        .split(/\s+/)
        .filter((w) => w.length > 1 && !['my', 'the', 'reminder', 'to'].includes(w));
      const pending = (await this.reminders.list(context.caller)).filter((r) => r.status === 'pending');
      const found = pending.filter((r) => words.every((w) => r.text.toLowerCase().includes(w)));
      if (found.length === 0) throw new ToolRefusal(`No pending reminder matches "${args.matching}".`);
      if (found.length > 1)
        throw new ToolRefusal(
          `Several pending reminders match "${args.matching}": ${JSON.stringify(found.map(shown))}. Ask the user which one.`,
        );
      id = found[0].reminder_id;
    }
    const cancelled = await refusingDomainErrors(() => this.reminders.cancel(context.caller, id));
    const view = shown(cancelled);
    return { output: JSON.stringify({ cancelled: true, ...view }), summary: `Cancelled: ${cancelled.text} (${view.due})` };
  }
}

const ZoneArgs = z.object({
  time_zone: z.string().trim().min(1).max(64).describe('An IANA time zone: Europe/London, America/New_York, Asia/Tokyo'),
});

/** Keeps the user's time zone (asked once), for reminders at a clock time. */
@Injectable()
export class SetTimeZoneTool implements ChatTool<z.infer<typeof ZoneArgs>> {
  readonly name = 'set_time_zone';
  readonly description = "Save the user's time zone (asked once, kept for their reminders).";
  readonly parameters = ZoneArgs;

  constructor(@Inject(RemindersService) private readonly reminders: Pick<RemindersService, 'updateSettings'>) {}

  label(): string {
    return 'Saving your time zone';
  }

  async run(args: z.infer<typeof ZoneArgs>, context: ToolCallContext): Promise<ToolResult> {
    const saved = await refusingDomainErrors(() => this.reminders.updateSettings(context.caller, { time_zone: args.time_zone }));
    return { output: JSON.stringify({ saved: true, time_zone: saved.time_zone }), summary: `Time zone: ${saved.time_zone}` };
  }
}
