import { Injectable } from '@nestjs/common';
import { toSafeText } from '@app/contracts';
import { DataSource } from 'typeorm';

export type ReminderStatus = 'pending' | 'delivering' | 'delivered' | 'cancelled';

export interface ReminderRecord {
  id: string;
  userId: string;
  chatId: string | null;
  text: string;
  dueAt: Date;
  timeZone: string | null;
  quietHoursOk: boolean;
  source: 'chat' | 'portal';
  status: ReminderStatus;
  notBefore: Date | null;
  attempts: number;
  notifiedAt: Date | null;
  deliveredAt: Date | null;
  lateBySeconds: number | null;
  textStatus: string | null;
  seenAt: Date | null;
  createdAt: Date;
}

export interface ReminderSettingRecord {
  timeZone: string | null;
  quietStartMinute: number | null;
  quietEndMinute: number | null;
}

interface ReminderRow {
  id: string;
  user_id: string;
  chat_id: string | null;
  text: string;
  due_at: Date;
  time_zone: string | null;
  quiet_hours_ok: boolean;
  source: 'chat' | 'portal';
  status: ReminderStatus;
  not_before: Date | null;
  attempts: number;
  notified_at: Date | null;
  delivered_at: Date | null;
  late_by_seconds: number | null;
  text_status: string | null;
  seen_at: Date | null;
  created_at: Date;
}

const COLUMNS =
  'id, user_id, chat_id, text, due_at, time_zone, quiet_hours_ok, source, status, not_before, attempts, notified_at, delivered_at, late_by_seconds, text_status, seen_at, created_at';

function recordOf(row: ReminderRow): ReminderRecord {
  return {
    id: row.id,
    userId: row.user_id,
    chatId: row.chat_id,
    text: row.text,
    dueAt: row.due_at,
    timeZone: row.time_zone,
    quietHoursOk: row.quiet_hours_ok,
    source: row.source,
    status: row.status,
    notBefore: row.not_before,
    attempts: row.attempts,
    notifiedAt: row.notified_at,
    deliveredAt: row.delivered_at,
    lateBySeconds: row.late_by_seconds,
    textStatus: row.text_status,
    seenAt: row.seen_at,
    createdAt: row.created_at,
  };
}

/** The reminders and the reminder settings (chat schema); the only place their SQL lives. */
@Injectable()
export class RemindersRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(
    r: Pick<ReminderRecord, 'id' | 'userId' | 'chatId' | 'text' | 'dueAt' | 'timeZone' | 'quietHoursOk' | 'source'>,
  ): Promise<ReminderRecord> {
    const [row]: ReminderRow[] = await this.dataSource.query(
      `INSERT INTO reminder (id, user_id, chat_id, text, due_at, time_zone, quiet_hours_ok, source)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
      [r.id, r.userId, r.chatId, toSafeText(r.text), r.dueAt, r.timeZone, r.quietHoursOk, r.source],
    );
    return recordOf(row);
  }

  async find(userId: string, id: string): Promise<ReminderRecord | null> {
    const [row]: ReminderRow[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM reminder WHERE id = $1 AND user_id = $2`, [
      id,
      userId,
    ]);
    return row ? recordOf(row) : null;
  }

  /** Pending (and being delivered) by time, then the others of the last `recentDays`, newest first. */
  async list(userId: string, recentDays: number): Promise<ReminderRecord[]> {
    const rows: ReminderRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM reminder
       WHERE user_id = $1 AND (status IN ('pending', 'delivering') OR updated_at > now() - make_interval(days => $2))
       ORDER BY (status IN ('pending', 'delivering')) DESC,
                CASE WHEN status IN ('pending', 'delivering') THEN due_at END ASC,
                COALESCE(delivered_at, updated_at) DESC
       LIMIT 500`,
      [userId, recentDays],
    );
    return rows.map(recordOf);
  }

  async pendingCount(userId: string): Promise<number> {
    const [row]: { n: number }[] = await this.dataSource.query(
      "SELECT count(*)::int AS n FROM reminder WHERE user_id = $1 AND status IN ('pending', 'delivering')",
      [userId],
    );
    return row.n;
  }

  /** Changes a pending reminder (its text, time, quiet-hours choice); null when it is not pending (any more). */
  async update(
    userId: string,
    id: string,
    change: { text?: string; dueAt?: Date; timeZone?: string | null; quietHoursOk?: boolean },
  ): Promise<ReminderRecord | null> {
    const [rows]: [ReminderRow[], number] = await this.dataSource.query(
      `UPDATE reminder SET
         text = COALESCE($3, text),
         due_at = COALESCE($4, due_at),
         time_zone = CASE WHEN $4::timestamptz IS NULL THEN time_zone ELSE $5 END,
         quiet_hours_ok = COALESCE($6, quiet_hours_ok),
         not_before = CASE WHEN $4::timestamptz IS NULL THEN not_before END,
         updated_at = now()
       WHERE id = $1 AND user_id = $2 AND status = 'pending' RETURNING ${COLUMNS}`,
      [
        id,
        userId,
        change.text === undefined ? null : toSafeText(change.text),
        change.dueAt ?? null,
        change.timeZone ?? null,
        change.quietHoursOk ?? null,
      ],
    );
    return rows[0] ? recordOf(rows[0]) : null;
  }

  /** Cancels a pending reminder; null when it is not pending (being delivered, delivered, cancelled). */
  async cancel(userId: string, id: string): Promise<ReminderRecord | null> {
    const [rows]: [ReminderRow[], number] = await this.dataSource.query(
      `UPDATE reminder SET status = 'cancelled', updated_at = now() WHERE id = $1 AND user_id = $2 AND status = 'pending' RETURNING ${COLUMNS}`,
      [id, userId],
    );
    return rows[0] ? recordOf(rows[0]) : null;
  }

  async seen(userId: string, id: string): Promise<ReminderRecord | null> {
    const [rows]: [ReminderRow[], number] = await this.dataSource.query(
      `UPDATE reminder SET seen_at = COALESCE(seen_at, now()), updated_at = now() WHERE id = $1 AND user_id = $2 RETURNING ${COLUMNS}`,
      [id, userId],
    );
    return rows[0] ? recordOf(rows[0]) : null;
  }

  async setting(userId: string): Promise<ReminderSettingRecord | null> {
    const [row]: { time_zone: string | null; quiet_start_minute: number | null; quiet_end_minute: number | null }[] =
      await this.dataSource.query('SELECT time_zone, quiet_start_minute, quiet_end_minute FROM reminder_setting WHERE user_id = $1', [
        userId,
      ]);
    return row ? { timeZone: row.time_zone, quietStartMinute: row.quiet_start_minute, quietEndMinute: row.quiet_end_minute } : null;
  }

  async saveSetting(userId: string, change: Partial<ReminderSettingRecord>): Promise<ReminderSettingRecord> {
    const [row]: { time_zone: string | null; quiet_start_minute: number | null; quiet_end_minute: number | null }[] =
      await this.dataSource.query(
        `INSERT INTO reminder_setting (user_id, time_zone, quiet_start_minute, quiet_end_minute) VALUES ($1, $2, $3, $4)
         ON CONFLICT (user_id) DO UPDATE SET
           time_zone = COALESCE(EXCLUDED.time_zone, reminder_setting.time_zone),
           quiet_start_minute = COALESCE(EXCLUDED.quiet_start_minute, reminder_setting.quiet_start_minute),
           quiet_end_minute = COALESCE(EXCLUDED.quiet_end_minute, reminder_setting.quiet_end_minute),
           updated_at = now()
         RETURNING time_zone, quiet_start_minute, quiet_end_minute`,
        [userId, change.timeZone ?? null, change.quietStartMinute ?? null, change.quietEndMinute ?? null],
      );
    return { timeZone: row.time_zone, quietStartMinute: row.quiet_start_minute, quietEndMinute: row.quiet_end_minute };
  }

  /**
   * Takes up to `limit` reminders to deliver now: pending ones whose time (or put-off time) has
   * come, and ones being delivered whose lease has run out (their replica died). Each is leased to
   * the caller for `leaseMs`; replicas skip each other's rows. `attempts` (incremented) is the
   * claim's token: only its holder can finish or put off the reminder. The portal is notified by the
   * claim itself, so its notification never waits for the text.
   */
  async claimDue(leaseMs: number, limit: number): Promise<ReminderRecord[]> {
    const [rows]: [ReminderRow[], number] = await this.dataSource.query(
      `UPDATE reminder SET status = 'delivering', lease_until = now() + make_interval(secs => $1), attempts = attempts + 1,
         notified_at = COALESCE(notified_at, now()), updated_at = now()
       WHERE id IN (
         SELECT id FROM reminder
         WHERE (status = 'pending' AND COALESCE(not_before, due_at) <= now()) OR (status = 'delivering' AND lease_until < now())
         ORDER BY COALESCE(not_before, due_at) LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING ${COLUMNS}`,
      [leaseMs / 1000, limit],
    );
    return rows.map(recordOf);
  }

  /** Puts a claimed reminder's text off until `notBefore`; the portal is notified now. False when the claim was lost. */
  async putOff(id: string, attempts: number, notBefore: Date): Promise<boolean> {
    const [, count]: [unknown, number] = await this.dataSource.query(
      `UPDATE reminder SET status = 'pending', not_before = $3, lease_until = NULL, notified_at = COALESCE(notified_at, now()), updated_at = now()
       WHERE id = $1 AND status = 'delivering' AND attempts = $2`,
      [id, attempts, notBefore],
    );
    return count > 0;
  }

  /** Marks a claimed reminder delivered (in the portal, and what became of its text). False when the claim was lost. */
  async finish(id: string, attempts: number, outcome: { textStatus: string; lateBySeconds: number }): Promise<boolean> {
    const [, count]: [unknown, number] = await this.dataSource.query(
      `UPDATE reminder SET status = 'delivered', delivered_at = now(), notified_at = COALESCE(notified_at, now()), lease_until = NULL,
         text_status = $3, late_by_seconds = $4, updated_at = now()
       WHERE id = $1 AND status = 'delivering' AND attempts = $2`,
      [id, attempts, outcome.textStatus, outcome.lateBySeconds],
    );
    return count > 0;
  }
}
