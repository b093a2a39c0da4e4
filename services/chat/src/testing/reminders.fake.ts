import type { PublicOf } from '@app/platform';
import type { ReminderRecord, ReminderSettingRecord, RemindersRepository } from '../reminders/reminders.repository';

/** The reminders' store in memory, on the clock it is given (claims, leases and put-offs as the SQL does them). */
export class FakeRemindersRepository implements PublicOf<RemindersRepository> {
  readonly rows = new Map<string, ReminderRecord & { leaseUntil: Date | null }>();
  readonly settings = new Map<string, ReminderSettingRecord>();

  constructor(private readonly now: () => Date) {}

  async insert(r: Parameters<RemindersRepository['insert']>[0]): Promise<ReminderRecord> {
    const row = {
      ...r,
      status: 'pending' as const,
      notBefore: null,
      attempts: 0,
      notifiedAt: null,
      deliveredAt: null,
      lateBySeconds: null,
      textStatus: null,
      seenAt: null,
      createdAt: this.now(),
      leaseUntil: null,
    };
    this.rows.set(r.id, row);
    return { ...row };
  }

  async find(userId: string, id: string): Promise<ReminderRecord | null> {
    const row = this.rows.get(id);
    return row && row.userId === userId ? { ...row } : null;
  }

  async list(userId: string): Promise<ReminderRecord[]> {
    return [...this.rows.values()].filter((r) => r.userId === userId).map((r) => ({ ...r }));
  }

  async pendingCount(userId: string): Promise<number> {
    return [...this.rows.values()].filter((r) => r.userId === userId && (r.status === 'pending' || r.status === 'delivering')).length;
  }

  async update(userId: string, id: string, change: Parameters<RemindersRepository['update']>[2]): Promise<ReminderRecord | null> {
    const row = this.rows.get(id);
    if (!row || row.userId !== userId || row.status !== 'pending') return null;
    if (change.text !== undefined) row.text = change.text;
    if (change.dueAt) Object.assign(row, { dueAt: change.dueAt, timeZone: change.timeZone ?? null, notBefore: null });
    if (change.quietHoursOk !== undefined) row.quietHoursOk = change.quietHoursOk;
    return { ...row };
  }

  async cancel(userId: string, id: string): Promise<ReminderRecord | null> {
    const row = this.rows.get(id);
    if (!row || row.userId !== userId || row.status !== 'pending') return null;
    row.status = 'cancelled';
    return { ...row };
  }

  async seen(userId: string, id: string): Promise<ReminderRecord | null> {
    const row = this.rows.get(id);
    if (!row || row.userId !== userId) return null;
    row.seenAt ??= this.now();
    return { ...row };
  }

  async setting(userId: string): Promise<ReminderSettingRecord | null> {
    return this.settings.get(userId) ?? null;
  }

  async saveSetting(userId: string, change: Partial<ReminderSettingRecord>): Promise<ReminderSettingRecord> {
    const was = this.settings.get(userId) ?? { timeZone: null, quietStartMinute: null, quietEndMinute: null };
    const now = {
      timeZone: change.timeZone ?? was.timeZone,
      quietStartMinute: change.quietStartMinute ?? was.quietStartMinute,
      quietEndMinute: change.quietEndMinute ?? was.quietEndMinute,
    };
    this.settings.set(userId, now);
    return now;
  }

  async claimDue(leaseMs: number, limit: number): Promise<ReminderRecord[]> {
    const now = this.now().getTime();
    const due = [...this.rows.values()]
      .filter(
        (r) =>
          (r.status === 'pending' && (r.notBefore ?? r.dueAt).getTime() <= now) ||
          (r.status === 'delivering' && r.leaseUntil !== null && r.leaseUntil.getTime() < now),
      )
      .slice(0, limit);
    for (const r of due)
      Object.assign(r, {
        status: 'delivering',
        leaseUntil: new Date(now + leaseMs),
        attempts: r.attempts + 1,
        notifiedAt: r.notifiedAt ?? new Date(now),
      });
    return due.map((r) => ({ ...r }));
  }

  async putOff(id: string, attempts: number, notBefore: Date): Promise<boolean> {
    const row = this.rows.get(id);
    if (!row || row.status !== 'delivering' || row.attempts !== attempts) return false;
    Object.assign(row, { status: 'pending', notBefore, leaseUntil: null, notifiedAt: row.notifiedAt ?? this.now() });
    return true;
  }

  async finish(id: string, attempts: number, outcome: { textStatus: string; lateBySeconds: number }): Promise<boolean> {
    const row = this.rows.get(id);
    if (!row || row.status !== 'delivering' || row.attempts !== attempts) return false;
    Object.assign(row, {
      status: 'delivered',
      deliveredAt: this.now(),
      notifiedAt: row.notifiedAt ?? this.now(),
      leaseUntil: null,
      textStatus: outcome.textStatus,
      lateBySeconds: outcome.lateBySeconds,
    });
    return true;
  }
}
