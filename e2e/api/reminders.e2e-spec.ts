import { TRANSPORTS } from '@app/testing';
import request from 'supertest';
import { ApiClient, eventually, phoneNumbers } from '../support/api-client';
import { postStream } from '../support/sse';
import { startTestStack, type TestStack } from '../support/test-stack';

type Texted = { to: string; body: string; purpose: string };

/**
 * Reminders end to end with no keys, as `npm start` runs: set by text from the development phone
 * (the offline model calls set_reminder) and on the Reminders page, delivered at their time to the
 * development inbox through the sms service's outbound queue, and in the portal.
 */
describe.each(TRANSPORTS)('reminders over the %s transport', (transport) => {
  let booted: TestStack;
  const nextPhone = phoneNumbers(transport === 'nats' ? 5100 : 5300);
  const http = () => request(booted.stack.url);
  const inbox = async (phone: string): Promise<Texted[]> =>
    (
      await http()
        .get(`/api/v1/dev/sms/messages?to=${encodeURIComponent(phone)}`)
        .expect(200)
    ).body.messages;
  const reminderTexts = async (phone: string) => (await inbox(phone)).filter((m) => m.body.startsWith('Reminder:'));
  const textFromPhone = (phone: string, body: string) => http().post('/api/v1/dev/sms/inbound').send({ from: phone, body }).expect(202);
  /** Lets the scheduler run several more rounds: nothing more may arrive. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 800));
  const rows = async (userId: string) =>
    (await booted.db.query('SELECT id, status, text_status, late_by_seconds, not_before FROM chat.reminder WHERE user_id = $1', [userId]))
      .rows;
  const makeDue = (id: string, ago = "interval '1 second'") =>
    booted.db.query(`UPDATE chat.reminder SET due_at = now() - ${ago} WHERE id = $1`, [id]);

  beforeAll(async () => {
    booted = await startTestStack('reminders', transport, {
      OFFLINE_TOKEN_DELAY_MS: '0',
      REMINDER_POLL_MS: '100',
      PHONE_CODES_PER_IP: '1000',
      RATE_LIMIT_PER_MINUTE: '2400',
    });
  });
  afterAll(async () => {
    await booted?.close();
  });

  it('sets a reminder by text and texts it back at its time, once', async () => {
    const phone = nextPhone();
    await textFromPhone(phone, 'Remind me in 10 minutes to stretch my legs');
    const answer = await eventually(async () => (await inbox(phone)).find((m) => m.purpose === 'reply'), 15_000);
    expect(answer.body).toMatch(/I'll remind you on .+ to stretch my legs/);
    // The number's account (linked when the text came in).
    const owner = (await booted.db.query('SELECT user_id FROM sms.sms_number WHERE phone_number = $1', [phone])).rows[0].user_id;
    const [reminder] = await rows(owner);
    expect(reminder).toMatchObject({ status: 'pending' });
    // Its time comes (the test moves it rather than wait ten minutes).
    await makeDue(reminder.id);
    const [texted] = await eventually(async () => ((await reminderTexts(phone)).length ? reminderTexts(phone) : undefined), 15_000);
    expect(texted).toMatchObject({ body: 'Reminder: stretch my legs', purpose: 'notice' });
    await settle();
    expect(await reminderTexts(phone)).toHaveLength(1);
    expect(await rows(owner)).toEqual([
      expect.objectContaining({ status: 'delivered', text_status: 'queued', late_by_seconds: expect.any(Number) }),
    ]);
  });

  it('sets one on the Reminders page and delivers it by text and as a portal notification; a late one says how late', async () => {
    const phone = nextPhone();
    const web = new ApiClient(booted.stack.url);
    await web.signInByPhone(phone);
    await web
      .auth(http().put('/api/v1/reminders/settings'))
      .send({ time_zone: 'Europe/London', quiet_start_minute: 0, quiet_end_minute: 0 })
      .expect(200);
    const soon = new Date(Date.now() + 1_500).toISOString();
    const created = await web.post('/api/v1/reminders/', { text: 'call Mum', when: soon }).expect(201);
    expect(created.body).toMatchObject({ text: 'call Mum', status: 'pending', due_at: soon, source: 'portal', seen: false });
    const [texted] = await eventually(async () => ((await reminderTexts(phone)).length ? reminderTexts(phone) : undefined), 15_000);
    expect(texted.body).toBe('Reminder: call Mum');
    const listed = await eventually(async () => {
      const list = (await web.get('/api/v1/reminders/').expect(200)).body as { status: string; notified_at: string | null }[];
      return list[0]?.status === 'delivered' ? list : undefined;
    });
    expect(listed[0]).toMatchObject({ text_status: 'queued', seen: false, notified_at: expect.any(String) });
    const seen = await web.post(`/api/v1/reminders/${created.body.reminder_id}/seen`).expect(200);
    expect(seen.body.seen).toBe(true);

    // One that could not go at its time (the service was down for three hours) says so.
    const late = await web.post('/api/v1/reminders/', { text: 'water the plants', when: 'in 30 minutes' }).expect(201);
    await makeDue(late.body.reminder_id, "interval '3 hours'");
    const lateText = await eventually(async () => (await reminderTexts(phone)).find((m) => m.body.includes('water the plants')), 15_000);
    expect(lateText.body).toMatch(/^Reminder: water the plants\n\(It was due .+ and comes 3 h late: it could not be sent on time\.\)$/);
  });

  it('keeps texts for the morning in quiet hours (the portal is told at once), and never texts a number that said STOP', async () => {
    const phone = nextPhone();
    const web = new ApiClient(booted.stack.url);
    await web.signInByPhone(phone);
    // Quiet hours around now, in UTC.
    const minute = new Date().getUTCHours() * 60 + new Date().getUTCMinutes();
    const settings = { time_zone: 'UTC', quiet_start_minute: (minute + 1380) % 1440, quiet_end_minute: (minute + 60) % 1440 };
    await web.auth(http().put('/api/v1/reminders/settings')).send(settings).expect(200);
    const night = await web
      .post('/api/v1/reminders/', { text: 'take the bins out', when: 'in 30 minutes', quiet_hours_ok: false })
      .expect(201);
    await makeDue(night.body.reminder_id);
    const putOff = await eventually(async () => {
      const [row] = (await rows(String((await web.get('/api/v1/auth/me')).body.user_id))).filter((r) => r.id === night.body.reminder_id);
      return row?.not_before ? row : undefined;
    });
    expect(putOff.status).toBe('pending');
    expect(new Date(putOff.not_before).getTime()).toBeGreaterThan(Date.now() + 50 * 60_000);
    const listed = (await web.get('/api/v1/reminders/').expect(200)).body;
    expect(listed[0]).toMatchObject({ status: 'pending', notified_at: expect.any(String) });
    expect(await reminderTexts(phone)).toEqual([]);

    // After STOP: delivered in the portal, not texted.
    await textFromPhone(phone, 'STOP');
    await eventually(async () => ((await inbox(phone)).some((m) => m.purpose === 'confirmation') ? true : undefined), 15_000);
    await web.auth(http().put('/api/v1/reminders/settings')).send({ quiet_start_minute: 0, quiet_end_minute: 0 }).expect(200);
    const stopped = await web.post('/api/v1/reminders/', { text: 'stretch', when: 'in 30 minutes' }).expect(201);
    await makeDue(stopped.body.reminder_id);
    const delivered = await eventually(async () => {
      const list = (await web.get('/api/v1/reminders/').expect(200)).body as { reminder_id: string; status: string }[];
      return list.find((r) => r.reminder_id === stopped.body.reminder_id && r.status === 'delivered');
    });
    expect(delivered).toMatchObject({ text_status: 'opted_out' });
    await settle();
    expect(await reminderTexts(phone)).toEqual([]);
  });

  it('gives a guest (no number) the portal notification, and answers bad input with 4xx and a detail', async () => {
    const guest = new ApiClient(booted.stack.url);
    await guest.guest();
    const reminder = await guest.post('/api/v1/reminders/', { text: 'tea', when: new Date(Date.now() + 500).toISOString() }).expect(201);
    const delivered = await eventually(async () => {
      const list = (await guest.get('/api/v1/reminders/').expect(200)).body as { status: string }[];
      return list[0]?.status === 'delivered' ? list[0] : undefined;
    });
    expect(delivered).toMatchObject({ reminder_id: reminder.body.reminder_id, text_status: 'no_number' });

    const bad = async (body: object, status = 400) => {
      const res = await guest.post('/api/v1/reminders/', body);
      expect({ status: res.status, body: res.body }).toEqual({ status, body: { detail: expect.any(String) } });
      return res.body.detail as string;
    };
    expect(await bad({ text: 'x', when: 'tomorrow at 9' })).toMatch(/time zone is not known/);
    expect(await bad({ text: 'x', when: 'whenever' })).toMatch(/time zone|cannot|not a time/);
    expect(await bad({ text: 'x', when: '2020-01-01T00:00:00Z' })).toBe('That time has already passed.');
    expect(await bad({ text: '', when: 'in 5 minutes' }, 422)).toMatch(/text/);
    expect(
      (await guest.auth(http().put('/api/v1/reminders/settings')).send({ time_zone: 'Mars/Olympus' }).expect(400)).body.detail,
    ).toMatch(/Unknown time zone/);
    // Cancelled: listed as such, not delivered; cancelling again is a conflict.
    const later = await guest.post('/api/v1/reminders/', { text: 'later', when: 'in 2 hours' }).expect(201);
    await guest.delete(`/api/v1/reminders/${later.body.reminder_id}`).expect(200);
    expect((await guest.delete(`/api/v1/reminders/${later.body.reminder_id}`).expect(409)).body.detail).toMatch(/not pending/);
  });

  it('shows the tool phase in a reply that sets a reminder, and cancels one by its words', async () => {
    const web = new ApiClient(booted.stack.url);
    await web.guest();
    const chatId = (await web.post('/api/v1/chats/', {}).expect(201)).body.chat_id;
    const send = (content: string) => postStream(`${booted.stack.url}/api/v1/chats/${chatId}/messages`, web.token!, { content });
    const set = await send('Remind me in 2 hours to call the dentist');
    expect(set.events.filter((e) => e.event === 'phase').map((e) => e.data)).toContainEqual({
      phase: 'tool',
      tool: 'set_reminder',
      label: 'Setting a reminder',
    });
    expect((await web.get('/api/v1/reminders/').expect(200)).body).toEqual([
      expect.objectContaining({ text: 'call the dentist', source: 'chat' }),
    ]);
    const cancel = await send('Cancel my dentist reminder');
    const reply = cancel.events.find((e) => e.event === 'assistant_message')!.data;
    expect(reply.content).toMatch(/^Cancelled your reminder to call the dentist/);
    expect((await web.get('/api/v1/reminders/').expect(200)).body[0]).toMatchObject({ status: 'cancelled' });
    // A clock time with no time zone known: the offline model asks for it, once it is given the reminder is set.
    const asked = await send('Remind me tomorrow at 9 to buy bread');
    expect(asked.events.find((e) => e.event === 'assistant_message')!.data.content).toMatch(/Which time zone are you in\?/);
    await send('My time zone is Europe/Lisbon');
    expect((await web.get('/api/v1/reminders/settings').expect(200)).body.time_zone).toBe('Europe/Lisbon');
    const again = await send('Remind me tomorrow at 9 to buy bread');
    expect(again.events.find((e) => e.event === 'assistant_message')!.data.content).toMatch(/09:00 to buy bread/);
  });
});
