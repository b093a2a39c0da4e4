import { Inject, Injectable, Optional, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import { SMS_REMINDER_RPC } from '@app/contracts/sms';
import { AppLogger, RpcClient, SERVICE_CONFIG, type PublicOf } from '@app/platform';
import { formatDelay, formatLocal, inQuietHours, localMinute, quietHoursEnd } from './reminder-time';
import { RemindersRepository, type ReminderRecord } from './reminders.repository';
import { REMINDER_CLOCK, RemindersService, type Clock, type ReminderConfig } from './reminders.service';

/** Reminders claimed per round. */
const BATCH = 20;
/** How long the sms service has to queue a reminder's text. */
const TEXT_TIMEOUT_MS = 10_000;
/** A text the sms service could not take is tried again after this (doubling, up to a minute). */
const RETRY_BASE_MS = 2_000;
const RETRY_MAX_MS = 60_000;

/** The caller a reminder's text is asked for as: its owner (the sms service finds their number). */
export function reminderCaller(reminder: Pick<ReminderRecord, 'id' | 'userId'>): Caller {
  return { user_id: reminder.userId, is_anon: false, session_id: null, request_id: `reminder:${reminder.id}` };
}

/** What a reminder's text says: its words, and how late it is when it is (with its time in the user's zone). */
export function reminderBody(
  reminder: Pick<ReminderRecord, 'text' | 'dueAt'>,
  lateBySeconds: number,
  lateAfterMs: number,
  zone: string | null,
): string {
  const body = `Reminder: ${reminder.text}`;
  if (lateBySeconds * 1000 < lateAfterMs) return body;
  return `${body}\n(It was due ${formatLocal(reminder.dueAt, zone)} and comes ${formatDelay(lateBySeconds)} late: it could not be sent on time.)`;
}

/**
 * Delivers reminders at their time, exactly once, whatever happens to this replica or the bus.
 *
 * Every REMINDER_POLL_MS each replica claims due reminders (a lease of REMINDER_LEASE_MS, rows
 * locked with SKIP LOCKED, so replicas share the work and never take the same one). For each: the
 * portal is notified (its row says so); the text is asked of the sms service (SMS_REMINDER_RPC,
 * idempotent by the reminder's id, so asking again after a crash or a lost answer texts nothing
 * twice), unless it would arrive within the user's quiet hours when it was not asked for then: it
 * is then put off to the end of them. A text the sms service cannot take now (the bus away, a
 * timeout) is put off with a back-off; a replica that dies leaves its claims to the others once
 * their lease runs out. A reminder delivered late says by how much.
 */
@Injectable()
export class ReminderDelivery implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;
  private readonly now: Clock;

  constructor(
    @Inject(RemindersRepository) private readonly repo: PublicOf<RemindersRepository>,
    @Inject(RemindersService) private readonly reminders: Pick<RemindersService, 'settingsOf'>,
    @Inject(RpcClient) private readonly rpc: Pick<RpcClient, 'call'>,
    @Inject(AppLogger) private readonly logger: Pick<AppLogger, 'warn' | 'info'>,
    @Inject(SERVICE_CONFIG) private readonly config: ReminderConfig,
    @Optional() @Inject(REMINDER_CLOCK) clock?: Clock,
  ) {
    this.now = clock ?? (() => new Date());
  }

  onApplicationBootstrap(): void {
    this.schedule();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.deliverDue()
        .then(() => undefined)
        .catch((error: unknown) =>
          this.logger.warn({ msg: 'Reminders could not be delivered this round', error: String(error) }, 'ReminderDelivery'),
        )
        .finally(() => this.schedule());
    }, this.config.REMINDER_POLL_MS);
    this.timer.unref?.();
  }

  /** One round: every reminder due now; answers how many were delivered. */
  async deliverDue(): Promise<number> {
    let delivered = 0;
    for (;;) {
      const claimed = await this.repo.claimDue(this.config.REMINDER_LEASE_MS, BATCH);
      for (const reminder of claimed) if (await this.deliver(reminder)) delivered++;
      if (claimed.length < BATCH || this.stopped) return delivered;
    }
  }

  private async deliver(reminder: ReminderRecord): Promise<boolean> {
    const now = this.now();
    const settings = await this.reminders.settingsOf(reminder.userId);
    const zone = settings.time_zone ?? reminder.timeZone;
    // A text that would come at night when the reminder was not asked for the night waits for the morning (the portal is told now).
    if (zone && !reminder.quietHoursOk && inQuietHours(localMinute(now, zone), settings.quiet_start_minute, settings.quiet_end_minute)) {
      await this.repo.putOff(reminder.id, reminder.attempts, quietHoursEnd(now, zone, settings.quiet_end_minute));
      return false;
    }
    const lateBySeconds = Math.max(0, Math.round((now.getTime() - reminder.dueAt.getTime()) / 1000));
    const body = reminderBody(reminder, lateBySeconds, this.config.REMINDER_LATE_AFTER_MS, zone);
    let textStatus: string;
    try {
      const answer = await this.rpc.call(SMS_REMINDER_RPC.deliver, { reminder_id: reminder.id, body }, reminderCaller(reminder), {
        timeoutMs: TEXT_TIMEOUT_MS,
      });
      textStatus = answer.status;
    } catch (error) {
      const backOff = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, reminder.attempts - 1));
      this.logger.warn(
        {
          msg: 'A reminder could not be texted yet: it is tried again',
          reminder_id: reminder.id,
          error: String(error),
          retry_in_ms: backOff,
        },
        'ReminderDelivery',
      );
      await this.repo.putOff(reminder.id, reminder.attempts, new Date(now.getTime() + backOff));
      return false;
    }
    // A reminder texted after its time counts its delay from its time (what the user sees in the portal too).
    const finished = await this.repo.finish(reminder.id, reminder.attempts, { textStatus, lateBySeconds });
    if (finished && lateBySeconds * 1000 >= this.config.REMINDER_LATE_AFTER_MS)
      this.logger.info(
        { msg: 'A reminder was delivered late', reminder_id: reminder.id, late_by_seconds: lateBySeconds },
        'ReminderDelivery',
      );
    return finished;
  }
}
