import { FakeTwilio, TRANSPORTS } from '@app/testing';
import { strFromU8, unzipSync } from 'fflate';
import { ApiClient, binary, eventually, phoneNumbers } from '../support/api-client';
import { postStream } from '../support/sse';
import { startTestStack, type TestStack } from '../support/test-stack';

const ASSISTANT = '+15005550006';
const INBOUND = '/api/v1/sms/twilio/inbound';

/**
 * An account's data rights with the text channel on (the fake Twilio behind the real SDK).
 *
 * Issue 22.4: once DELETE /users/me has confirmed, no row holding the user's words is left in any
 * table, the services' outboxes included (their sent events were kept an hour; pending ones are
 * dropped with the user's rows, in the purge's own transaction). The words are typed on the web and
 * texted in through the fake Twilio.
 */
describe.each(TRANSPORTS)('export and deletion over the %s transport', (transport) => {
  const twilio = new FakeTwilio();
  let booted: TestStack;
  const nextPhone = phoneNumbers(transport === 'nats' ? 8800 : 8900);

  beforeAll(async () => {
    await twilio.start();
    booted = await startTestStack('datarights', transport, {
      OFFLINE_TOKEN_DELAY_MS: '0',
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: twilio.authToken,
      TWILIO_FROM_NUMBER: ASSISTANT,
      TWILIO_API_BASE_URL: twilio.url,
      SMS_GROUP_NUMBERS: '+15005550007',
      PHONE_CODES_PER_IP: '1000',
      ACCOUNT_DELETION_WAIT_MS: '15000',
    });
  });

  afterAll(async () => {
    await booted?.close();
    await twilio.stop();
  });

  /** Every outbox of every service's schema. */
  async function outboxes(): Promise<string[]> {
    const { rows } = await booted.db.query("SELECT table_schema FROM information_schema.tables WHERE table_name = 'outbox' ORDER BY 1");
    return (rows as { table_schema: string }[]).map((r) => `${r.table_schema}.outbox`);
  }

  /** Rows of any outbox whose event holds one of `words`, or is about `userId` beyond the account's own lifecycle. */
  async function rowsAbout(userId: string, words: string[]): Promise<string[]> {
    const found: string[] = [];
    for (const table of await outboxes()) {
      const { rows } = await booted.db.query(
        `SELECT subject, envelope::text AS envelope FROM ${table}
         WHERE envelope::text LIKE ANY($1::text[]) OR ((envelope -> 'payload' ->> 'user_id') = $2 AND subject NOT LIKE 'events.user.%')`,
        [words.map((w) => `%${w}%`), userId],
      );
      found.push(...(rows as { subject: string }[]).map((r) => `${table}: ${r.subject}`));
    }
    return found;
  }

  async function signIn(phone: string): Promise<ApiClient> {
    const api = new ApiClient(booted.stack.url);
    await api.fetchCsrf();
    const before = twilio.messagesTo(phone).length;
    expect((await api.requestPhoneCode(phone)).status).toBe(200);
    const code = await eventually(
      async () =>
        twilio
          .messagesTo(phone)
          .slice(before)
          .at(-1)
          ?.body.match(/\b(\d{6})\b/)?.[1],
    );
    const res = await api.phoneCallback(phone, code).expect(302);
    api.token = decodeURIComponent(String(res.headers.location).split('#access_token=')[1]);
    return api;
  }

  it('exports the groups the user created (name, channel) in sms.json (issue 22.5)', async () => {
    const phone = nextPhone();
    const api = await signIn(phone);
    const group = (await api.post('/api/v1/sms/groups', { name: 'Allotment' }).expect(201)).body as { channel_url: string };
    const zip = await binary(api.get('/api/v1/users/me/export')).expect(200);
    const sms = JSON.parse(strFromU8(unzipSync(new Uint8Array(zip.body as Buffer))['sms.json'])) as Record<
      string,
      Record<string, unknown>[]
    >;
    expect(sms.sms_group).toEqual([expect.objectContaining({ name: 'Allotment', channel_url: group.channel_url })]);
    // Deleting the account takes the group nobody else is in.
    await api.delete('/api/v1/users/me').expect(204);
    const left = await booted.db.query('SELECT count(*)::int AS n FROM sms.sms_group WHERE channel_url = $1', [group.channel_url]);
    expect(left.rows[0].n).toBe(0);
  });

  it('exports the projects (name, instructions, file references) and which conversations are in them, and deletes them with the account', async () => {
    const api = await signIn(nextPhone());
    const upload = await api
      .auth(api.http.post('/api/v1/files/'))
      .attach('file', Buffer.from('project brief'), { filename: 'brief.txt', contentType: 'text/plain' })
      .expect(201);
    const fileId = upload.body.object_store_object_id as string;
    const project = (
      await api
        .post('/api/v1/projects/', { name: 'Kitchen', instructions: 'Metric units only.', files: [{ object_store_object_id: fileId }] })
        .expect(201)
    ).body as { project_id: string };
    const chat = (await api.post('/api/v1/chats/', { project_id: project.project_id }).expect(201)).body as { chat_id: string };
    const zip = await binary(api.get('/api/v1/users/me/export')).expect(200);
    const exported = JSON.parse(strFromU8(unzipSync(new Uint8Array(zip.body as Buffer))['chat.json'])) as Record<
      string,
      Record<string, unknown>[]
    >;
    expect(exported.project).toEqual([
      expect.objectContaining({
        id: project.project_id,
        name: 'Kitchen',
        instructions: 'Metric units only.',
        files: [{ object_store_object_id: fileId, mime_type: 'text/plain', filename: 'brief.txt' }],
      }),
    ]);
    expect(exported.conversation).toEqual([expect.objectContaining({ id: chat.chat_id, project_id: project.project_id })]);

    await api.delete('/api/v1/users/me').expect(204);
    const left = await booted.db.query('SELECT count(*)::int AS n FROM chat.project WHERE id = $1', [project.project_id]);
    expect(left.rows[0].n).toBe(0);
  });

  it('leaves no outbox row holding the words the user typed or texted once the deletion confirms', async () => {
    const phone = nextPhone();
    const texted = `TEXTED-${transport}-door code 9911`;
    const typed = `TYPED-${transport}-my pin is 4821`;
    await twilio.sendInbound(`${booted.stack.url}${INBOUND}`, { from: phone, to: ASSISTANT, body: texted });
    await eventually(async () => (twilio.messagesTo(phone).length >= 1 ? true : undefined), 15_000);
    const api = await signIn(phone);
    const userId = (await api.get('/api/v1/auth/me').expect(200)).body.user_id as string;
    const chat = await api.post('/api/v1/chats/', { conversation_title: 'words' }).expect(201);
    const reply = await postStream(`${booted.stack.url}/api/v1/chats/${chat.body.chat_id}/messages`, api.token!, { content: typed });
    expect(reply.events.map((e) => e.event)).toContain('assistant_message');
    // Before: the exchanges wait (or were kept after sending) in the chat service's outbox.
    const held = await eventually(async () => {
      const rows = await rowsAbout(userId, [texted, typed]);
      return rows.length >= 2 ? rows : undefined;
    });
    expect(held.some((r) => r.startsWith('chat.outbox'))).toBe(true);

    await api.delete('/api/v1/users/me').expect(204);
    expect(await rowsAbout(userId, [texted, typed])).toEqual([]);
  });
});
