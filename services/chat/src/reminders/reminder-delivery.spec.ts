import { SMS_REMINDER_RPC } from '@app/contracts/sms';
import { RpcCallError } from '@app/platform';
import { chatEnvSchema } from '../config';
import { aCaller } from '../testing/builders';
import { FakeLogger } from '../testing/logger.fake';
import { FakeRpc } from '../testing/bus.fakes';
import { FakeRemindersRepository } from '../testing/reminders.fake';
import { ReminderDelivery, reminderBody } from './reminder-delivery';
import { RemindersService } from './reminders.service';
import { noUserFacts } from '../testing/user-facts.fake';

const OWNER = '11111111-1111-4111-8111-111111111111';

/** Delivery over a fake store and a fake sms service, on a clock the test moves. */
function setup(start = '2026-11-26T14:00:00Z') {
  let now = new Date(start);
  const clock = () => now;
  const config = chatEnvSchema.parse({ REMINDER_LATE_AFTER_MS: '120000' });
  const store = new FakeRemindersRepository(clock);
  const service = new RemindersService(store, config, noUserFacts, clock);
  let smsAway = false;
  const texted: { reminder_id: string; body: string; user: string | null }[] = [];
  const rpc = new FakeRpc().answer(SMS_REMINDER_RPC.deliver, (data) => {
    if (smsAway)
      throw new RpcCallError({ status: 503, detail: 'No service answers', code: 'unavailable' }, SMS_REMINDER_RPC.deliver.subject);
    // The sms service's side: once per reminder.
    const again = texted.some((t) => t.reminder_id === data.reminder_id);
    if (!again) texted.push({ ...data, user: null });
    return { status: again ? ('duplicate' as const) : ('queued' as const) };
  });
  const logger = new FakeLogger();
  const delivery = new ReminderDelivery(store, service, rpc, logger, config, clock);
  return {
    store,
    service,
    rpc,
    delivery,
    texted,
    logger,
    at: (iso: string) => (now = new Date(iso)),
    setSmsAway: (away: boolean) => (smsAway = away),
  };
}

describe('reminder delivery', () => {
  it('texts a due reminder once, as its owner, and tells the portal; later rounds do nothing more', async () => {
    const s = setup();
    const set = await s.service.create(aCaller(OWNER, false), { text: 'call Mum', when: 'in 30 minutes' }, { source: 'portal' });
    expect(await s.delivery.deliverDue()).toBe(0);
    s.at('2026-11-26T14:30:00Z');
    expect(await s.delivery.deliverDue()).toBe(1);
    expect(await s.delivery.deliverDue()).toBe(0);
    expect(s.texted).toEqual([{ reminder_id: set.reminder_id, body: 'Reminder: call Mum', user: null }]);
    expect(s.rpc.calls[0].caller).toMatchObject({ user_id: OWNER, request_id: `reminder:${set.reminder_id}` });
    expect(s.store.rows.get(set.reminder_id)).toMatchObject({ status: 'delivered', textStatus: 'queued', lateBySeconds: 0 });
    expect(s.store.rows.get(set.reminder_id)!.notifiedAt).toEqual(new Date('2026-11-26T14:30:00Z'));
  });

  it('tells the portal as the reminder is taken, before the text is asked for (a slow sms service delays no notification)', async () => {
    const s = setup();
    const set = await s.service.create(aCaller(OWNER, false), { text: 'feed the cat', when: 'in 5 minutes' }, { source: 'portal' });
    s.at('2026-11-26T14:05:00Z');
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    const asked = new Promise<void>((resolve) =>
      s.rpc.answer(SMS_REMINDER_RPC.deliver, async () => {
        resolve();
        await held;
        return { status: 'queued' as const };
      }),
    );
    const round = s.delivery.deliverDue();
    await asked;
    expect(s.store.rows.get(set.reminder_id)).toMatchObject({ status: 'delivering', notifiedAt: new Date('2026-11-26T14:05:00Z') });
    answer();
    expect(await round).toBe(1);
    expect(s.store.rows.get(set.reminder_id)!.notifiedAt).toEqual(new Date('2026-11-26T14:05:00Z'));
  });

  it('tries again with a back-off while the sms service is away, the portal told at once, and texts it once it is back', async () => {
    const s = setup();
    const set = await s.service.create(aCaller(OWNER, false), { text: 'stretch', when: 'in 10 minutes' }, { source: 'chat' });
    s.at('2026-11-26T14:10:00Z');
    s.setSmsAway(true);
    expect(await s.delivery.deliverDue()).toBe(0);
    const row = s.store.rows.get(set.reminder_id)!;
    expect(row).toMatchObject({ status: 'pending', notBefore: new Date('2026-11-26T14:10:02Z') });
    expect(row.notifiedAt).toEqual(new Date('2026-11-26T14:10:00Z'));
    expect(s.logger.said('warn')).toContain('A reminder could not be texted yet: it is tried again');
    // Before its retry time nothing happens; the second failure waits twice as long.
    s.at('2026-11-26T14:10:01Z');
    expect(await s.delivery.deliverDue()).toBe(0);
    s.at('2026-11-26T14:10:02Z');
    await s.delivery.deliverDue();
    expect(s.store.rows.get(set.reminder_id)!.notBefore).toEqual(new Date('2026-11-26T14:10:06Z'));
    s.setSmsAway(false);
    s.at('2026-11-26T14:10:06Z');
    expect(await s.delivery.deliverDue()).toBe(1);
    expect(s.texted.map((t) => t.body)).toEqual(['Reminder: stretch']);
    expect(s.store.rows.get(set.reminder_id)).toMatchObject({ status: 'delivered', lateBySeconds: 6 });
  });

  it("takes over a reminder whose replica died mid-delivery once its lease has run out, and the sms service's idempotency keeps it to one text", async () => {
    const s = setup();
    const set = await s.service.create(aCaller(OWNER, false), { text: 'tea', when: 'in 1 minute' }, { source: 'portal' });
    s.at('2026-11-26T14:01:00Z');
    // A replica claims it, texts it, and dies before writing it delivered.
    const [claimed] = await s.store.claimDue(30_000, 20);
    await s.rpc.call(SMS_REMINDER_RPC.deliver, { reminder_id: claimed.id, body: 'Reminder: tea' }, aCaller(OWNER, false));
    expect(await s.delivery.deliverDue()).toBe(0); // still leased
    s.at('2026-11-26T14:01:31Z');
    expect(await s.delivery.deliverDue()).toBe(1);
    expect(s.texted).toHaveLength(1);
    expect(s.store.rows.get(set.reminder_id)).toMatchObject({ status: 'delivered', textStatus: 'duplicate' });
  });

  it('keeps a text for the end of quiet hours in the user zone, unless the reminder was asked for the night', async () => {
    const s = setup('2026-11-26T21:00:00Z');
    await s.service.updateSettings(aCaller(OWNER, false), { time_zone: 'Europe/London' });
    const evening = await s.service.create(aCaller(OWNER, false), { text: 'bins', when: 'at 21:50' }, { source: 'portal' });
    const night = await s.service.create(aCaller(OWNER, false), { text: 'the late film', when: 'at 23:30' }, { source: 'portal' });
    expect(night.quiet_hours_ok).toBe(true);
    expect(evening.quiet_hours_ok).toBe(false);
    // The evening one could not go at its time: it is 23:40 when it is delivered, within quiet hours.
    s.at('2026-11-26T23:40:00Z');
    expect(await s.delivery.deliverDue()).toBe(1);
    expect(s.texted.map((t) => t.body)).toEqual([
      'Reminder: the late film\n(It was due Thu 26 Nov, 23:30 and comes 10 min late: it could not be sent on time.)',
    ]);
    expect(s.store.rows.get(evening.reminder_id)).toMatchObject({ status: 'pending', notBefore: new Date('2026-11-27T08:00:00Z') });
    expect(s.store.rows.get(evening.reminder_id)!.notifiedAt).toEqual(new Date('2026-11-26T23:40:00Z'));
    s.at('2026-11-27T08:00:00Z');
    expect(await s.delivery.deliverDue()).toBe(1);
    expect(s.texted.at(-1)!.body).toMatch(/^Reminder: bins\n\(It was due Thu 26 Nov, 21:50 and comes 10 h 10 min late/);
  });

  it('never delivers a cancelled reminder, and a claim lost to another replica changes nothing', async () => {
    const s = setup();
    const cancelled = await s.service.create(aCaller(OWNER, false), { text: 'no', when: 'in 5 minutes' }, { source: 'portal' });
    await s.service.cancel(aCaller(OWNER, false), cancelled.reminder_id);
    s.at('2026-11-26T14:05:00Z');
    expect(await s.delivery.deliverDue()).toBe(0);
    expect(s.texted).toEqual([]);
    const kept = await s.service.create(aCaller(OWNER, false), { text: 'yes', when: 'in 5 minutes' }, { source: 'portal' });
    s.at('2026-11-26T14:10:00Z');
    const [claimed] = await s.store.claimDue(30_000, 20);
    expect(await s.store.finish(kept.reminder_id, claimed.attempts - 1, { textStatus: 'queued', lateBySeconds: 0 })).toBe(false);
  });

  it('says how late a late reminder is, in the user zone (UTC when none is known)', () => {
    const due = new Date('2026-11-26T09:00:00Z');
    expect(reminderBody({ text: 'x', dueAt: due }, 119, 120_000, null)).toBe('Reminder: x');
    expect(reminderBody({ text: 'x', dueAt: due }, 3 * 3600, 120_000, null)).toBe(
      'Reminder: x\n(It was due Thu 26 Nov, 09:00 UTC and comes 3 h late: it could not be sent on time.)',
    );
  });
});
