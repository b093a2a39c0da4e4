import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import type { Reminder, ReminderSettings } from '@app/contracts/chat';
import { DomainError, SERVICE_CONFIG, type PublicOf } from '@app/platform';
import type { ChatConfig } from '../config';
import { ownerOf } from '../conversations/conversations.service';
import { inQuietHours, isKnownZone, localMinute, ReminderTimeError, resolveWhen } from './reminder-time';
import { UserFactsCache } from '../replies/user-facts.cache';
import { RemindersRepository, type ReminderRecord, type ReminderSettingRecord } from './reminders.repository';

export const REMINDER_NOT_FOUND = 'No such reminder.';
export const REMINDER_NOT_PENDING = 'This reminder is not pending any more (delivered or cancelled).';
export const UNKNOWN_ZONE = 'Unknown time zone: give an IANA name such as Europe/London or America/New_York.';
/** A reminder may be set for a moment ago (the time it took to ask), not earlier. */
const PAST_GRACE_MS = 60_000;
/** The farthest a reminder may be set. */
const HORIZON_MS = 5 * 366 * 24 * 3_600_000;
/** Delivered and cancelled reminders stay listed this long. */
const RECENT_DAYS = 30;

/** Injected in tests to fix the time. */
export const REMINDER_CLOCK = Symbol('REMINDER_CLOCK');
export type Clock = () => Date;

export type ReminderConfig = Pick<
  ChatConfig,
  | 'REMINDER_MAX_PENDING'
  | 'REMINDER_QUIET_START'
  | 'REMINDER_QUIET_END'
  | 'REMINDER_POLL_MS'
  | 'REMINDER_LEASE_MS'
  | 'REMINDER_LATE_AFTER_MS'
>;

export const minuteOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * The user's reminders: set (by the model's tools or the Reminders page), listed, changed,
 * cancelled, dismissed; the user's time zone and quiet hours. Someone else's reminder is "not
 * found". Delivery is ReminderDelivery's.
 */
@Injectable()
export class RemindersService {
  private readonly now: Clock;

  constructor(
    @Inject(RemindersRepository) private readonly repo: PublicOf<RemindersRepository>,
    @Inject(SERVICE_CONFIG) private readonly config: ReminderConfig,
    @Inject(UserFactsCache) private readonly facts: Pick<UserFactsCache, 'get' | 'lookup' | 'changed'>,
    @Optional() @Inject(REMINDER_CLOCK) clock?: Clock,
  ) {
    this.now = clock ?? (() => new Date());
  }

  async list(caller: Caller): Promise<Reminder[]> {
    return (await this.repo.list(ownerOf(caller), RECENT_DAYS)).map(toReminderView);
  }

  async pending(caller: Caller): Promise<ReminderRecord[]> {
    return (await this.repo.list(ownerOf(caller), 0)).filter((r) => r.status === 'pending' || r.status === 'delivering');
  }

  async create(
    caller: Caller,
    input: { text: string; when: string; quiet_hours_ok?: boolean },
    origin: { source: 'chat' | 'portal'; chatId?: string | null },
  ): Promise<Reminder> {
    const userId = ownerOf(caller);
    if ((await this.repo.pendingCount(userId)) >= this.config.REMINDER_MAX_PENDING)
      throw DomainError.conflict(`You have ${this.config.REMINDER_MAX_PENDING} reminders waiting already: cancel some first.`);
    const settings = await this.settingsOf(userId);
    const { dueAt, zone } = this.due(input.when, settings.time_zone);
    const stored = await this.repo.insert({
      id: randomUUID(),
      userId,
      chatId: origin.chatId ?? null,
      text: input.text.trim(),
      dueAt,
      timeZone: zone,
      quietHoursOk: input.quiet_hours_ok ?? this.askedAtNight(dueAt, settings),
      source: origin.source,
    });
    return toReminderView(stored);
  }

  async update(caller: Caller, input: { reminder_id: string; text?: string; when?: string; quiet_hours_ok?: boolean }): Promise<Reminder> {
    const userId = ownerOf(caller);
    const existing = await this.repo.find(userId, input.reminder_id);
    if (!existing) throw DomainError.notFound(REMINDER_NOT_FOUND);
    const settings = await this.settingsOf(userId);
    const due = input.when === undefined ? undefined : this.due(input.when, settings.time_zone);
    const updated = await this.repo.update(userId, input.reminder_id, {
      text: input.text?.trim(),
      dueAt: due?.dueAt,
      timeZone: due?.zone ?? null,
      quietHoursOk: input.quiet_hours_ok ?? (due ? this.askedAtNight(due.dueAt, settings) : undefined),
    });
    if (!updated) throw DomainError.conflict(REMINDER_NOT_PENDING);
    return toReminderView(updated);
  }

  async cancel(caller: Caller, reminderId: string): Promise<Reminder> {
    const userId = ownerOf(caller);
    const cancelled = await this.repo.cancel(userId, reminderId);
    if (cancelled) return toReminderView(cancelled);
    if (!(await this.repo.find(userId, reminderId))) throw DomainError.notFound(REMINDER_NOT_FOUND);
    throw DomainError.conflict(REMINDER_NOT_PENDING);
  }

  async seen(caller: Caller, reminderId: string): Promise<Reminder> {
    const seen = await this.repo.seen(ownerOf(caller), reminderId);
    if (!seen) throw DomainError.notFound(REMINDER_NOT_FOUND);
    return toReminderView(seen);
  }

  async settings(caller: Caller): Promise<ReminderSettings> {
    return this.settingsOf(ownerOf(caller));
  }

  async updateSettings(
    caller: Caller,
    change: { time_zone?: string; quiet_start_minute?: number; quiet_end_minute?: number },
  ): Promise<ReminderSettings> {
    if (change.time_zone !== undefined && !isKnownZone(change.time_zone)) throw DomainError.badRequest(UNKNOWN_ZONE);
    const saved = await this.repo.saveSetting(ownerOf(caller), {
      timeZone: change.time_zone,
      quietStartMinute: change.quiet_start_minute,
      quietEndMinute: change.quiet_end_minute,
    });
    this.facts.changed(ownerOf(caller));
    return this.settingsView(saved);
  }

  /**
   * The user's settings, with the operator's quiet hours where the user set none. Read on every
   * reply's start (the time zone in the model's instructions): kept in the process (UserFactsCache)
   * until they change.
   */
  async settingsOf(userId: string): Promise<ReminderSettings> {
    const known = this.facts.get(userId, 'reminderSettings');
    if (known !== undefined) return this.settingsView(known);
    return this.settingsView(
      await this.facts.lookup(
        userId,
        'reminderSettings',
        () => this.repo.setting(userId),
        (setting) => setting,
      ),
    );
  }

  private settingsView(setting: ReminderSettingRecord | null): ReminderSettings {
    return {
      time_zone: setting?.timeZone ?? null,
      quiet_start_minute: setting?.quietStartMinute ?? minuteOf(this.config.REMINDER_QUIET_START),
      quiet_end_minute: setting?.quietEndMinute ?? minuteOf(this.config.REMINDER_QUIET_END),
    };
  }

  private due(when: string, zone: string | null): { dueAt: Date; zone: string | null } {
    const now = this.now();
    let resolved: { dueAt: Date; zone: string | null };
    try {
      resolved = resolveWhen(when, now, zone);
    } catch (error) {
      if (error instanceof ReminderTimeError) throw DomainError.badRequest(error.message);
      throw error;
    }
    const at = resolved.dueAt.getTime();
    if (Number.isNaN(at)) throw DomainError.badRequest(`"${when}" is not a time I can read.`);
    if (at < now.getTime() - PAST_GRACE_MS) throw DomainError.badRequest('That time has already passed.');
    if (at > now.getTime() + HORIZON_MS)
      throw DomainError.badRequest('That is too far ahead: a reminder can be set up to five years ahead.');
    return resolved;
  }

  /** A reminder asked for a time within quiet hours was asked for the night: it may go by text then. */
  private askedAtNight(dueAt: Date, settings: ReminderSettings): boolean {
    if (!settings.time_zone) return false;
    return inQuietHours(localMinute(dueAt, settings.time_zone), settings.quiet_start_minute, settings.quiet_end_minute);
  }
}

export function toReminderView(r: ReminderRecord): Reminder {
  return {
    reminder_id: r.id,
    text: r.text,
    due_at: r.dueAt.toISOString(),
    time_zone: r.timeZone,
    quiet_hours_ok: r.quietHoursOk,
    status: r.status === 'delivering' ? 'pending' : r.status,
    source: r.source,
    notified_at: r.notifiedAt?.toISOString() ?? null,
    delivered_at: r.deliveredAt?.toISOString() ?? null,
    late_by_seconds: r.lateBySeconds,
    text_status: (r.textStatus as Reminder['text_status']) ?? null,
    seen: r.seenAt !== null,
    created_at: r.createdAt.toISOString(),
  };
}
