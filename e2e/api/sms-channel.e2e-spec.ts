import { FakeTwilio, TRANSPORTS } from '@app/testing';
import { strFromU8, unzipSync } from 'fflate';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import request from 'supertest';
import { ApiClient, binary, eventually, phoneNumbers } from '../support/api-client';
import { postStream } from '../support/sse';
import { ASSISTANT, INBOUND, smsStack, STATUS } from '../support/sms-stack';
import { startTestStack, type TestStack } from '../support/test-stack';

const GROUP_NUMBER = '+15005550007';

/** The text channel end to end: the fake Twilio posts signed webhooks and counts what the product sends. */
describe.each(TRANSPORTS)('the SMS channel over the %s transport', (transport) => {
  const texting = smsStack('smschannel', transport, {
    SMS_GROUP_NUMBERS: GROUP_NUMBER,
    SMS_MONTHLY_ALLOWANCE: '5',
    SMS_USAGE_NOTICE_SHARE: '0.6',
    SMS_CREDIT_NOTICE_BELOW: '0',
    SMS_MAX_SEGMENTS: '3',
    // The routes that send texts then allow 20 a minute per address (a 120th).
    RATE_LIMIT_PER_MINUTE: '2400',
  });
  const { twilio, url, sentTo, waitFor, signedIn } = texting;
  const nextPhone = phoneNumbers(transport === 'nats' ? 8100 : 8300);
  const text = (from: string, body: string, extra: Partial<Parameters<FakeTwilio['sendInbound']>[1]> = {}) =>
    texting.textFrom(from, ASSISTANT, body, extra);
  /** Lets the queue settle, then the count must not have grown. */
  const settle = () => new Promise((r) => setTimeout(r, 700));

  const inboundRows = async (from: string) =>
    (await texting.booted.db.query('SELECT status, user_id FROM sms.inbound_message WHERE from_number = $1', [from])).rows as {
      status: string;
      user_id: string | null;
    }[];

  it('answers a first text from a new number: an account is made, the reply goes out through Twilio, the webhook answers empty TwiML', async () => {
    const phone = nextPhone();
    const res = await text(phone, 'Hello, who are you?');
    expect(res.status).toBe(200);
    expect(res.contentType).toMatch(/^text\/xml/);
    expect(res.body).toContain('<Response/>');
    const [reply] = await waitFor(phone, 1);
    expect(reply).toMatchObject({ from: ASSISTANT, to: phone });
    expect(reply.body.length).toBeGreaterThan(0);
    expect(reply.body).not.toMatch(/\*\*|^#+ /m);
    const rows = await eventually(async () => ((await inboundRows(phone))[0]?.status === 'answered' ? inboundRows(phone) : undefined));
    expect(rows[0].user_id).toMatch(/^[0-9a-f-]{36}$/);
    const users = await texting.booted.db
      .query('SELECT id FROM auth.users WHERE phone_number = $1', [phone])
      .catch(() => ({ rows: [{ id: rows[0].user_id }] }));
    expect(users.rows).toHaveLength(1);
  });

  it("takes an MMS picture from Twilio with the account's credentials, never sending them to another host, and stores it as the texter's file", async () => {
    const phone = nextPhone();
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#c33' } })
      .png()
      .toBuffer();
    const hosted = twilio.hostMedia(png);
    // A media URL that names another host: it may be fetched, but never with Twilio's credentials.
    const seen: (string | undefined)[] = [];
    const elsewhere = createServer((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/picture.png`;
    try {
      await text(phone, 'What is in this picture?', { mediaUrls: [hosted, elsewhereUrl] });
      await waitFor(phone, 1);
      const mediaPath = new URL(hosted).pathname;
      expect(twilio.requests().filter((r) => r.method === 'GET' && r.path === mediaPath)).toEqual([
        expect.objectContaining({ authenticated: true, status: 200 }),
      ]);
      expect(seen).toEqual([undefined]);
      const [row] = await eventually(async () => ((await inboundRows(phone))[0]?.status === 'answered' ? inboundRows(phone) : undefined));
      const files = await texting.booted.db.query('SELECT mime_type, size FROM files.file_object WHERE user_id = $1', [row.user_id]);
      expect(files.rows).toEqual([{ mime_type: 'image/png', size: String(png.length) }]);
    } finally {
      elsewhere.close();
    }
  });

  it('refuses a wrong signature with 403 and stores nothing', async () => {
    const phone = nextPhone();
    const res = await text(phone, 'forged', { signature: 'bm90IGEgc2lnbmF0dXJl' });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toEqual({ detail: expect.any(String) });
    const unsigned = await request(texting.booted.stack.url)
      .post(INBOUND)
      .type('form')
      .send({ MessageSid: 'SM1234567890abcdef', From: phone, To: ASSISTANT, Body: 'x' });
    expect(unsigned.status).toBe(403);
    await settle();
    expect(await inboundRows(phone)).toEqual([]);
    expect(sentTo(phone)).toEqual([]);
  });

  it('answers a retried webhook (same MessageSid) once', async () => {
    const phone = nextPhone();
    const first = await text(phone, 'What is the capital of France?');
    const again = await text(phone, 'What is the capital of France?', { messageSid: first.messageSid });
    expect(again.status).toBe(200);
    await waitFor(phone, 1);
    await settle();
    expect(sentTo(phone)).toHaveLength(1);
    expect(await inboundRows(phone)).toHaveLength(1);
  });

  it('honours STOP: one confirmation, nothing more (texts stored, not answered) until START', async () => {
    const phone = nextPhone();
    await text(phone, ' stop! ');
    const [confirmation] = await waitFor(phone, 1);
    expect(confirmation.body).toMatch(/unsubscribed/i);
    await text(phone, 'STOP');
    await text(phone, 'Are you there?');
    await text(phone, 'HELP');
    await eventually(async () =>
      (await inboundRows(phone)).filter((r) => r.status !== 'processing' && r.status !== 'received').length === 4 ? true : undefined,
    );
    await settle();
    expect(sentTo(phone)).toHaveLength(1);
    await text(phone, 'Start');
    const after = await waitFor(phone, 2);
    expect(after[1].body).toMatch(/subscribed again/i);
    await text(phone, 'Hello again');
    await waitFor(phone, 3);
  });

  it('answers HELP with a short help text that says how to stop', async () => {
    const phone = nextPhone();
    await text(phone, 'help');
    const [help] = await waitFor(phone, 1);
    expect(help.body).toMatch(/STOP/);
    expect(help.body.length).toBeLessThanOrEqual(160);
  });

  it('sends the usage notice once at the threshold, the limit notice at the limit, then no more replies this month', async () => {
    const phone = nextPhone();
    for (let i = 1; i <= 6; i++) {
      await text(phone, `Question number ${i}?`);
    }
    await eventually(
      async () =>
        (await inboundRows(phone)).every((r) => !['received', 'processing'].includes(r.status)) && (await inboundRows(phone)).length === 6
          ? true
          : undefined,
      20_000,
    );
    await settle();
    const bodies = sentTo(phone).map((m) => m.body);
    expect(bodies.filter((b) => /you have used 3 of your 5 texts/.test(b))).toHaveLength(1);
    expect(bodies.filter((b) => /reached your 5 texts/.test(b))).toHaveLength(1);
    // 5 replies, 2 notices; the 6th text is stored and not answered.
    expect(bodies).toHaveLength(7);
    expect((await inboundRows(phone)).filter((r) => r.status === 'over_allowance')).toHaveLength(1);
  });

  it('retries a Twilio 500 and delivers exactly once', async () => {
    const phone = nextPhone();
    twilio.failNext({ status: 500, code: 20500, message: 'Internal Server Error' });
    await text(phone, 'Tell me a fact.');
    await waitFor(phone, 1);
    await settle();
    expect(sentTo(phone)).toHaveLength(1);
    const attempts = twilio.requests().filter((r) => r.params.To === phone);
    expect(attempts.map((r) => r.status)).toEqual([500, 201]);
    const stored = await texting.booted.db.query('SELECT status, attempts FROM sms.outbound_message WHERE to_number = $1', [phone]);
    expect(stored.rows).toEqual([{ status: 'queued', attempts: 2 }]);
  });

  it('stores delivery status callbacks per message (signed), 403 otherwise', async () => {
    const phone = nextPhone();
    await text(phone, 'Hi');
    const [sent] = await waitFor(phone, 1);
    const res = await twilio.sendStatus(url(STATUS), sent, 'delivered');
    expect(res.status).toBe(204);
    const rows = await texting.booted.db.query('SELECT status FROM sms.outbound_message WHERE provider_message_id = $1', [sent.sid]);
    expect(rows.rows).toEqual([{ status: 'delivered' }]);
    const callbacks = await texting.booted.db.query('SELECT status FROM sms.sms_status_callback WHERE message_sid = $1', [sent.sid]);
    expect(callbacks.rows).toEqual([{ status: 'delivered' }]);
    const forged = await request(texting.booted.stack.url)
      .post(STATUS)
      .type('form')
      .set('x-twilio-signature', 'x')
      .send({ MessageSid: sent.sid, MessageStatus: 'failed' });
    expect(forged.status).toBe(403);
  });

  it('is one user on the web and by text: the texted conversation shows in the portal, a memory said on the web personalizes the reply', async () => {
    const phone = nextPhone();
    const web = new ApiClient(texting.booted.stack.url);
    await web.fetchCsrf();
    expect((await web.requestPhoneCode(phone)).status).toBe(200);
    const code = (await waitFor(phone, 1))[0].body.match(/\b(\d{6})\b/)![1];
    const res = await web.phoneCallback(phone, code).expect(302);
    web.token = decodeURIComponent(String(res.headers.location).split('#access_token=')[1]);
    const chat = (await web.post('/api/v1/chats/', {}).expect(201)).body.chat_id as string;
    const said = await postStream(url(`/api/v1/chats/${chat}/messages`), web.token, { content: 'I moved to Lisbon' });
    expect(said.status).toBe(200);
    await eventually(async () => {
      const memories = (await web.get('/api/v1/user_memory/?user_preference_name=default').expect(200)).body as unknown[];
      return memories.length > 0 ? true : undefined;
    }, 15_000);
    await text(phone, 'Where do I live?');
    await waitFor(phone, 2);
    const me = (await web.get('/api/v1/auth/me').expect(200)).body.user_id as string;
    const rows = await eventually(async () => ((await inboundRows(phone))[0]?.status === 'answered' ? inboundRows(phone) : undefined));
    expect(rows[0].user_id).toBe(me);
    const chats = (await web.get('/api/v1/chats/').expect(200)).body as { chat_id: string; conversation_title: string | null }[];
    const texted = (await texting.booted.db.query('SELECT chat_id FROM sms.sms_thread WHERE user_id = $1', [me])).rows[0].chat_id as string;
    expect(chats.map((c) => c.chat_id)).toContain(texted);
    const messages = (await web.get(`/api/v1/chats/${texted}`).expect(200)).body.messages as {
      sender: string;
      metadata: { memory_ids?: string[] };
    }[];
    const reply = messages.find((m) => m.sender === 'assistant')!;
    expect(reply.metadata.memory_ids?.length).toBeGreaterThan(0);
    const sms = (await web.get('/api/v1/sms/me').expect(200)).body;
    expect(sms).toMatchObject({ phone_number: phone, opted_out: false, texts_used: 1, monthly_allowance: 5 });
  });

  it('runs a group from invite to an answer in the group', async () => {
    const owner = nextPhone();
    const friend = nextPhone();
    const web = new ApiClient(texting.booted.stack.url);
    await web.fetchCsrf();
    await web.requestPhoneCode(owner);
    const code = (await waitFor(owner, 1))[0].body.match(/\b(\d{6})\b/)![1];
    web.token = decodeURIComponent(String((await web.phoneCallback(owner, code).expect(302)).headers.location).split('#access_token=')[1]);
    const group = (await web.post('/api/v1/sms/groups', { name: 'Trip to Porto' }).expect(201)).body;
    expect(group).toMatchObject({ name: 'Trip to Porto', phone_number: GROUP_NUMBER, members: [{ is_you: true }] });
    const invite = (await web.post(`/api/v1/sms/groups/${group.channel_url}/invites`).expect(201)).body;
    expect(invite.url).toBe(`/group-search/invite/${invite.invite_id}`);
    const anonymous = request(texting.booted.stack.url);
    expect((await anonymous.get(`/api/v1/sms/group-invites/${invite.invite_id}`).expect(200)).body).toMatchObject({
      group_name: 'Trip to Porto',
      member_count: 1,
    });
    expect(
      (await anonymous.post(`/api/v1/sms/group-invites/${invite.invite_id}/join`).send({ phone_number: friend }).expect(202)).body,
    ).toEqual({ status: 'confirmation_sent' });
    const [ask] = await waitFor(friend, 1);
    expect(ask).toMatchObject({ from: GROUP_NUMBER });
    await twilio.sendInbound(url(INBOUND), { from: friend, to: GROUP_NUMBER, body: 'YES' });
    await waitFor(friend, 2);
    await twilio.sendInbound(url(INBOUND), { from: friend, to: GROUP_NUMBER, body: 'Hi all, looking forward to Porto' });
    const relayed = await waitFor(owner, 2);
    expect(relayed[1].body).toMatch(/: Hi all, looking forward to Porto$/);
    await twilio.sendInbound(url(INBOUND), { from: owner, to: GROUP_NUMBER, body: 'Assistant, what should we pack for Porto?' });
    await waitFor(friend, 4);
    await waitFor(owner, 3);
    const found = (await web.get(`/api/v1/sms/groups/${group.channel_url}/messages?q=porto`).expect(200)).body.results;
    expect(found.length).toBeGreaterThanOrEqual(2);
    expect(found[0].highlights[0]).toEqual(expect.objectContaining({ start: expect.any(Number), end: expect.any(Number) }));
    const outsider = new ApiClient(texting.booted.stack.url);
    await outsider.guest();
    await outsider.get(`/api/v1/sms/groups/${group.channel_url}`).expect(404);
    await web.delete(`/api/v1/sms/groups/${group.channel_url}/invites/${invite.invite_id}`).expect(204);
    await anonymous.get(`/api/v1/sms/group-invites/${invite.invite_id}`).expect(404);
  });

  /** A portal user signed in by phone code (the code read at the fake Twilio), with a group and a live invite link. */
  async function groupWithInvite(name: string) {
    const owner = nextPhone();
    const web = new ApiClient(texting.booted.stack.url);
    await web.fetchCsrf();
    await web.requestPhoneCode(owner);
    const code = (await waitFor(owner, 1))[0].body.match(/\b(\d{6})\b/)![1];
    web.token = decodeURIComponent(String((await web.phoneCallback(owner, code).expect(302)).headers.location).split('#access_token=')[1]);
    const group = (await web.post('/api/v1/sms/groups', { name }).expect(201)).body as { channel_url: string };
    const invite = (await web.post(`/api/v1/sms/groups/${group.channel_url}/invites`).expect(201)).body as { invite_id: string };
    return { owner, web, group, invite };
  }

  it('texts a number at most 3 group invitations a day (then 429), and none to a number that texted STOP', async () => {
    const { invite } = await groupWithInvite('Book club');
    const join = (phone: string) =>
      request(texting.booted.stack.url).post(`/api/v1/sms/group-invites/${invite.invite_id}/join`).send({ phone_number: phone });
    const victim = nextPhone();
    for (let i = 0; i < 3; i++) expect((await join(victim)).status).toBe(202);
    const refused = await join(victim);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ detail: expect.stringMatching(/too many group invitations/) });
    await waitFor(victim, 3);
    await settle();
    expect(sentTo(victim)).toHaveLength(3);

    const stopped = nextPhone();
    await text(stopped, 'STOP');
    await waitFor(stopped, 1);
    // The same answer as for anyone (whether a number opted out is nobody's business), and no text.
    expect((await join(stopped)).body).toEqual({ status: 'confirmation_sent' });
    await settle();
    expect(sentTo(stopped)).toHaveLength(1);
  });

  it("exports the member's texts (in and out, with status, the sign-in code too) and deletion takes them and their words in groups", async () => {
    const { owner, web: ownerWeb, group, invite } = await groupWithInvite('Allotment');
    const member = nextPhone();
    await text(member, 'What should I plant in March?');
    const [reply] = await waitFor(member, 1);
    expect((await twilio.sendStatus(url(STATUS), reply, 'delivered')).status).toBe(204);
    await request(texting.booted.stack.url)
      .post(`/api/v1/sms/group-invites/${invite.invite_id}/join`)
      .send({ phone_number: member })
      .expect(202);
    await waitFor(member, 2);
    await twilio.sendInbound(url(INBOUND), { from: member, to: GROUP_NUMBER, body: 'YES' });
    await waitFor(member, 3);
    const secret = 'my shed key is under the blue pot';
    await twilio.sendInbound(url(INBOUND), { from: member, to: GROUP_NUMBER, body: `Hi all, ${secret}` });
    const relayed = await eventually(async () => sentTo(owner).find((m) => m.body.includes(secret)));
    expect(relayed.from).toBe(GROUP_NUMBER);
    const web = await signedIn(member);
    const userId = (await web.get('/api/v1/auth/me').expect(200)).body.user_id as string;
    const before = (await texting.booted.db.query('SELECT chat_id FROM sms.sms_group WHERE channel_url = $1', [group.channel_url])).rows[0]
      .chat_id as string;

    const zip = await binary(web.get('/api/v1/users/me/export')).expect(200);
    const sms = JSON.parse(strFromU8(unzipSync(new Uint8Array(zip.body as Buffer))['sms.json'])) as Record<
      string,
      Record<string, unknown>[]
    >;
    const out = sms.outbound_message.map((m) => ({ purpose: m.purpose, status: m.status, body: m.body }));
    expect(out).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ purpose: 'reply', status: 'delivered', body: reply.body }),
        expect.objectContaining({ purpose: 'login_code', body: expect.stringMatching(/\d{6}/) }),
        expect.objectContaining({ purpose: 'confirmation', body: expect.stringMatching(/joined "Allotment"/) }),
      ]),
    );
    expect(sms.inbound_message.map((m) => m.body)).toEqual(
      expect.arrayContaining(['What should I plant in March?', 'YES', `Hi all, ${secret}`]),
    );
    expect(sms.inbound_message.every((m) => typeof m.status === 'string')).toBe(true);
    expect(sms.sms_status_callback).toEqual([expect.objectContaining({ message_sid: reply.sid, status: 'delivered' })]);
    expect(sms.sms_group_member).toEqual([expect.objectContaining({ phone_number: member })]);
    expect(sms.sms_group_message.map((m) => m.body)).toEqual([`Hi all, ${secret}`]);
    // Nobody else's texts: the owner's number is in none of them.
    expect(JSON.stringify(sms)).not.toContain(owner);

    await web.delete('/api/v1/users/me').expect(204);
    const left = async () =>
      (
        await texting.booted.db.query(
          `SELECT (SELECT count(*) FROM sms.outbound_message WHERE to_number = $1 OR user_id = $2)::int
                + (SELECT count(*) FROM sms.inbound_message WHERE from_number = $1 OR user_id = $2)::int
                + (SELECT count(*) FROM sms.sms_status_callback WHERE user_id = $2)::int
                + (SELECT count(*) FROM sms.sms_group_member WHERE phone_number = $1 OR user_id = $2)::int
                + (SELECT count(*) FROM sms.sms_group_message WHERE sender_user_id = $2)::int AS n`,
          [member, userId],
        )
      ).rows[0].n as number;
    await eventually(async () => ((await left()) === 0 ? true : undefined), 15_000);
    // The owner keeps the group, without the member's words: search, relayed copy, member list, the model's context.
    const found = (await ownerWeb.get(`/api/v1/sms/groups/${group.channel_url}/messages?q=shed`).expect(200)).body.results;
    expect(found).toEqual([]);
    const ownerTexts = await texting.booted.db.query("SELECT body FROM sms.outbound_message WHERE to_number = $1 AND purpose = 'relay'", [
      owner,
    ]);
    expect(ownerTexts.rows.map((r: { body: string }) => r.body)).toEqual(['(removed)']);
    expect((await ownerWeb.get(`/api/v1/sms/groups/${group.channel_url}`).expect(200)).body.members).toEqual([
      expect.objectContaining({ is_you: true }),
    ]);
    const after = (await texting.booted.db.query('SELECT chat_id FROM sms.sms_group WHERE channel_url = $1', [group.channel_url])).rows[0]
      .chat_id as string;
    expect(after).not.toBe(before);
    expect((await texting.booted.db.query('SELECT count(*)::int AS n FROM chat.message WHERE chat_id = $1', [before])).rows[0].n).toBe(0);
  });

  it('answers GET /api/v1/sms/service without a token', async () => {
    const res = await request(texting.booted.stack.url).get('/api/v1/sms/service').expect(200);
    expect(res.body).toEqual({
      phone_number: ASSISTANT,
      group_numbers: [GROUP_NUMBER],
      monthly_allowance: 5,
      max_segments: 3,
      dev_phone: false,
    });
  });

  // Last: it spends this address's allowance of the routes that send texts.
  it('limits the routes that send texts per client address (429 with Retry-After), whatever number is typed', async () => {
    const { invite } = await groupWithInvite('Neighbours');
    let limited: request.Response | undefined;
    for (let i = 0; i < 25 && !limited; i++) {
      const res = await request(texting.booted.stack.url)
        .post(`/api/v1/sms/group-invites/${invite.invite_id}/join`)
        .send({ phone_number: nextPhone() });
      if (res.status === 429) limited = res;
      else expect(res.status).toBe(202);
    }
    expect(limited?.body).toEqual({ detail: expect.any(String) });
    expect(Number(limited?.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited?.headers['x-ratelimit-limit']).toBe('20');
  });
});

/** Without Twilio: the development phone texts the assistant through the same signed webhook path. */
describe('the development phone', () => {
  let booted: TestStack;
  beforeAll(async () => {
    booted = await startTestStack('smsdevphone', 'in-process', { OFFLINE_TOKEN_DELAY_MS: '0' });
  });
  afterAll(async () => {
    await booted?.close();
  });

  it('texts as a chosen number and reads the reply in the development inbox', async () => {
    const phone = '+14155559001';
    const res = await request(booted.stack.url)
      .post('/api/v1/dev/sms/inbound')
      .send({ from: phone, body: 'Hello from the dev phone' })
      .expect(202);
    expect(res.body.message_sid).toMatch(/^SM/);
    const reply = await eventually(async () => {
      const inbox = (
        await request(booted.stack.url)
          .get(`/api/v1/dev/sms/messages?to=${encodeURIComponent(phone)}`)
          .expect(200)
      ).body;
      return (inbox.messages as { purpose: string; body: string }[]).find((m) => m.purpose === 'reply');
    }, 15_000);
    expect(reply.body.length).toBeGreaterThan(0);
    const service = (await request(booted.stack.url).get('/api/v1/sms/service').expect(200)).body;
    expect(service).toMatchObject({ phone_number: '+15550100000', dev_phone: true });
  });
});
