import { randomUUID } from 'node:crypto';
import { serviceDatabase, type ServiceDatabase } from '@app/testing';
import { chatMigrations } from '../migrations';
import { RemindersRepository, type ReminderRecord } from './reminders.repository';

const LEASE_MS = 60_000;

/**
 * The reminders' SQL against the real PostgreSQL: a due reminder is claimed by one replica only,
 * a claim is its holder's token (a late holder can neither finish nor put off), a dead holder's
 * lease is taken over, and only a pending reminder changes.
 */
describe('RemindersRepository on PostgreSQL', () => {
  let db: ServiceDatabase;
  let reminders: RemindersRepository;

  beforeAll(async () => {
    db = await serviceDatabase({ label: 'reminders', schema: 'chat', migrations: chatMigrations });
    reminders = new RemindersRepository(db.source);
  });

  afterAll(() => db?.drop());

  // Each test's reminders are its own: the claims below take whatever is due, so earlier tests'
  // due reminders are finished by the test that made them.
  const reminderOf = (fields: Partial<Pick<ReminderRecord, 'userId' | 'dueAt' | 'text'>> = {}) =>
    reminders.insert({
      id: randomUUID(),
      userId: fields.userId ?? randomUUID(),
      chatId: null,
      text: fields.text ?? 'Call the dentist',
      dueAt: fields.dueAt ?? new Date(Date.now() + 3_600_000),
      timeZone: 'Europe/Lisbon',
      quietHoursOk: false,
      source: 'portal',
    });

  const past = () => new Date(Date.now() - 60_000);

  it('claims a due reminder for one replica only, and never one that is not due', async () => {
    const due = await reminderOf({ dueAt: past() });
    const later = await reminderOf();

    const claims = await Promise.all([
      reminders.claimDue(LEASE_MS, 10),
      reminders.claimDue(LEASE_MS, 10),
      reminders.claimDue(LEASE_MS, 10),
    ]);
    const claimed = claims.flat().filter((r) => r.id === due.id);
    expect(claimed).toHaveLength(1);
    expect(claimed[0]).toMatchObject({ status: 'delivering', attempts: 1 });
    expect(claimed[0].notifiedAt).not.toBeNull(); // the portal is told by the claim, before any text
    expect(claims.flat().some((r) => r.id === later.id)).toBe(false);

    expect(await reminders.finish(due.id, 1, { textStatus: 'sent', lateBySeconds: 60 })).toBe(true);
    expect(await reminders.find(due.userId, due.id)).toMatchObject({ status: 'delivered', textStatus: 'sent', lateBySeconds: 60 });
  });

  it('takes over a reminder whose holder died (lease run out); the dead holder can then neither finish nor put it off', async () => {
    const due = await reminderOf({ dueAt: past() });
    const [first] = await reminders.claimDue(LEASE_MS, 10);
    expect(first.id).toBe(due.id);
    await db.source.query("UPDATE reminder SET lease_until = now() - interval '1 second' WHERE id = $1", [due.id]);

    const [second] = await reminders.claimDue(LEASE_MS, 10);
    expect(second).toMatchObject({ id: due.id, attempts: 2 });
    expect(second.notifiedAt).toEqual(first.notifiedAt); // notified once, by the first claim
    expect(await reminders.finish(due.id, first.attempts, { textStatus: 'sent', lateBySeconds: 0 })).toBe(false);
    expect(await reminders.putOff(due.id, first.attempts, new Date())).toBe(false);
    expect(await reminders.finish(due.id, second.attempts, { textStatus: 'sent', lateBySeconds: 1 })).toBe(true);
  });

  it('puts a reminder off until a time (quiet hours): not claimed before it, claimed after, notified once', async () => {
    const due = await reminderOf({ dueAt: past() });
    const [claim] = await reminders.claimDue(LEASE_MS, 10);
    expect(await reminders.putOff(due.id, claim.attempts, new Date(Date.now() + 3_600_000))).toBe(true);
    const putOff = await reminders.find(due.userId, due.id);
    expect(putOff).toMatchObject({ status: 'pending' });
    expect(putOff?.notifiedAt).not.toBeNull();

    expect((await reminders.claimDue(LEASE_MS, 10)).some((r) => r.id === due.id)).toBe(false);
    await db.source.query("UPDATE reminder SET not_before = now() - interval '1 second' WHERE id = $1", [due.id]);
    const [again] = await reminders.claimDue(LEASE_MS, 10);
    expect(again.id).toBe(due.id);
    await reminders.finish(due.id, again.attempts, { textStatus: 'sent', lateBySeconds: 0 });
    expect((await reminders.find(due.userId, due.id))?.notifiedAt).toEqual(putOff?.notifiedAt);
  });

  it('changes or cancels a pending reminder only, and only its owner’s', async () => {
    const reminder = await reminderOf();
    const stranger = randomUUID();
    expect(await reminders.update(stranger, reminder.id, { text: 'Hijacked' })).toBeNull();
    expect(await reminders.cancel(stranger, reminder.id)).toBeNull();
    expect(await reminders.find(stranger, reminder.id)).toBeNull();

    const later = new Date(Date.now() + 7_200_000);
    const changed = await reminders.update(reminder.userId, reminder.id, { dueAt: later, timeZone: 'Asia/Tokyo' });
    expect(changed).toMatchObject({ text: 'Call the dentist', timeZone: 'Asia/Tokyo' });
    expect(changed?.dueAt.getTime()).toBe(later.getTime());
    // Only the text: the time and its zone stay.
    expect(await reminders.update(reminder.userId, reminder.id, { text: 'Call the dentist\u0000 at 9' })).toMatchObject({
      timeZone: 'Asia/Tokyo',
      text: expect.not.stringContaining('\u0000'),
    });

    expect(await reminders.cancel(reminder.userId, reminder.id)).toMatchObject({ status: 'cancelled' });
    expect(await reminders.update(reminder.userId, reminder.id, { text: 'Too late' })).toBeNull();
    expect(await reminders.cancel(reminder.userId, reminder.id)).toBeNull();
  });

  it('lists the pending by time first, then the recent others; counts the pending', async () => {
    const userId = randomUUID();
    const soon = await reminderOf({ userId, dueAt: new Date(Date.now() + 60_000) });
    const later = await reminderOf({ userId, dueAt: new Date(Date.now() + 120_000) });
    const cancelled = await reminderOf({ userId });
    await reminders.cancel(userId, cancelled.id);

    expect((await reminders.list(userId, 30)).map((r) => r.id)).toEqual([soon.id, later.id, cancelled.id]);
    expect(await reminders.pendingCount(userId)).toBe(2);
    expect(await reminders.list(randomUUID(), 30)).toEqual([]);
  });

  it('keeps what a settings change leaves out', async () => {
    const userId = randomUUID();
    expect(await reminders.setting(userId)).toBeNull();
    await reminders.saveSetting(userId, { timeZone: 'Europe/Paris', quietStartMinute: 22 * 60, quietEndMinute: 7 * 60 });
    expect(await reminders.saveSetting(userId, { timeZone: 'America/New_York' })).toEqual({
      timeZone: 'America/New_York',
      quietStartMinute: 22 * 60,
      quietEndMinute: 7 * 60,
    });
  });
});
