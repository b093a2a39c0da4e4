import { TRANSPORTS } from '@app/testing';
import request from 'supertest';
import { ApiClient, eventually, phoneNumbers } from '../support/api-client';
import { ASSISTANT, INBOUND, smsStack, STATUS } from '../support/sms-stack';
import { startTestStack, type TestStack } from '../support/test-stack';

const GROUP_NUMBER = '+15005550007';
const EVIL = 'https://evil.example';
/** The reproduction: `python3 -c "print('['*5000+']'*5000)"`. */
const DEEP_JSON = `${'['.repeat(5000)}${']'.repeat(5000)}`;

/** The bodies a page of another site can post without asking (no CORS preflight). */
const FORM_POSTS = [
  ['a form', 'application/x-www-form-urlencoded', 'phone_number=%2B14155550100'],
  [
    'a multipart form',
    'multipart/form-data; boundary=x',
    '--x\r\nContent-Disposition: form-data; name="phone_number"\r\n\r\n+14155550100\r\n--x--\r\n',
  ],
  ['a text/plain post', 'text/plain', '{"phone_number":"+14155550100"}'],
] as const;

/**
 * The edges of the text channel (issue 21, items 3, 5 and 6): Twilio's webhooks take form posts
 * only, JSON nesting is bounded wherever the gateway parses JSON, and the routes that make the
 * product send a text refuse another site's requests, so a stranger's page can text nobody.
 */
describe.each(TRANSPORTS)('the edges of the text channel over the %s transport', (transport) => {
  const texting = smsStack('smsedges', transport, {
    SMS_GROUP_NUMBERS: GROUP_NUMBER,
    RATE_LIMIT_PER_MINUTE: '12000',
  });
  const { twilio, url, sentTo, waitFor, signedIn } = texting;
  const nextPhone = phoneNumbers(transport === 'nats' ? 8500 : 8700);
  const host = () => new URL(texting.booted.stack.url).host;

  const inboundRows = async (from: string) =>
    (await texting.booted.db.query('SELECT status FROM sms.inbound_message WHERE from_number = $1', [from])).rows as { status: string }[];

  /** A portal user signed in by phone code, with a group and a live invite link. */
  async function inviteLink(name: string): Promise<string> {
    const web = await signedIn(nextPhone());
    const group = (await web.post('/api/v1/sms/groups', { name }).expect(201)).body as { channel_url: string };
    return ((await web.post(`/api/v1/sms/groups/${group.channel_url}/invites`).expect(201)).body as { invite_id: string }).invite_id;
  }

  describe("Twilio's webhooks", () => {
    it.each([INBOUND, STATUS])(
      '%s takes form posts only: JSON, text/plain and multipart get 415 {detail}, nothing is stored',
      async (path) => {
        const phone = nextPhone();
        const fields = { MessageSid: 'SM0123456789abcdef0123456789abcdef', From: phone, To: ASSISTANT, Body: 'hello' };
        for (const [type, body] of [
          ['application/json', JSON.stringify(fields)],
          ['text/plain', new URLSearchParams(fields).toString()],
          ['multipart/form-data; boundary=x', `--x\r\nContent-Disposition: form-data; name="From"\r\n\r\n${phone}\r\n--x--\r\n`],
        ]) {
          const res = await request(texting.booted.stack.url).post(path).set('content-type', type).send(body);
          expect({ type, status: res.status, body: res.body }).toEqual({ type, status: 415, body: { detail: expect.any(String) } });
        }
        expect(await inboundRows(phone)).toEqual([]);
      },
    );

    it.each([INBOUND, STATUS])('%s answers a JSON body nested 5,000 deep with a 4xx {detail}, never a 500', async (path) => {
      const res = await request(texting.booted.stack.url).post(path).set('content-type', 'application/json').send(DEEP_JSON);
      expect(res.status).toBe(415);
      expect(res.body).toEqual({ detail: expect.any(String) });
    });

    it("still takes Twilio's signed form posts", async () => {
      const phone = nextPhone();
      const res = await twilio.sendInbound(url(INBOUND), { from: phone, to: ASSISTANT, body: 'Hello there' });
      expect(res.status).toBe(200);
      await waitFor(phone, 1);
    });
  });

  it('refuses a JSON body nested deeper than 64 levels on any route with 400 {detail}, before any handler', async () => {
    for (const [method, path] of [
      ['post', '/api/v1/auth/anon'],
      ['post', '/api/v1/sms/group-invites/abcdefghijklmnop/join'],
      ['post', '/api/v1/chats/'],
    ] as const) {
      const res = await request(texting.booted.stack.url)[method](path).set('content-type', 'application/json').send(DEEP_JSON);
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 400,
        body: { detail: expect.stringMatching(/nested too deeply/) },
      });
    }
    const shallow = `${'['.repeat(64)}${']'.repeat(64)}`;
    const res = await request(texting.booted.stack.url).post('/api/v1/auth/anon').set('content-type', 'application/json').send(shallow);
    expect(res.status).toBe(200);
  });

  describe('the group join (it texts the number typed)', () => {
    let invite: string;
    beforeAll(async () => {
      invite = await inviteLink('Choir');
    });
    const join = () => request(texting.booted.stack.url).post(`/api/v1/sms/group-invites/${invite}/join`);

    it("sends nothing for a stranger's form post from https://evil.example (403), nor for any form-like post (415)", async () => {
      const victim = nextPhone();
      const fields = `phone_number=${encodeURIComponent(victim)}`;
      const forged = await join().set('origin', EVIL).set('content-type', 'application/x-www-form-urlencoded').send(fields);
      expect(forged.status).toBe(403);
      expect(forged.body).toEqual({ detail: expect.any(String) });
      for (const [label, type, body] of FORM_POSTS) {
        const res = await join()
          .set('content-type', type)
          .send(body.replace('+14155550100', victim).replace('%2B14155550100', encodeURIComponent(victim)));
        expect({ label, status: res.status, body: res.body }).toEqual({ label, status: 415, body: { detail: expect.any(String) } });
      }
      // A text the product does send, after the refused ones: once it is out, the victim's would be too.
      const friend = nextPhone();
      await join().send({ phone_number: friend }).expect(202);
      await waitFor(friend, 1);
      expect(sentTo(victim)).toEqual([]);
    });

    it.each([
      ['an Origin of another site', { origin: EVIL }],
      ['an opaque Origin (null)', { origin: 'null' }],
      ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
      ['Sec-Fetch-Site: same-site', { 'sec-fetch-site': 'same-site' }],
    ])('refuses a JSON request with %s: 403 {detail}, nothing sent', async (_label, headers) => {
      const victim = nextPhone();
      const res = await join().set(headers).send({ phone_number: victim });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: expect.any(String) });
      const friend = nextPhone();
      await join().send({ phone_number: friend }).expect(202);
      await waitFor(friend, 1);
      expect(sentTo(victim)).toEqual([]);
    });

    it("takes the portal's own request: its Origin, Sec-Fetch-Site same-origin, JSON", async () => {
      const phone = nextPhone();
      await join()
        .set({ origin: `http://${host()}`, 'sec-fetch-site': 'same-origin' })
        .send({ phone_number: phone })
        .expect(202);
      await waitFor(phone, 1);
    });
  });

  it('the sign-in code request refuses another site even with a valid CSRF pair (403), and form posts (415)', async () => {
    const web = new ApiClient(texting.booted.stack.url);
    await web.fetchCsrf();
    const victim = nextPhone();
    const path = '/api/v1/auth/login/phone_number';
    const forged = await web.withCsrf(request(texting.booted.stack.url).post(path)).set('origin', EVIL).send({ phone_number: victim });
    expect(forged.status).toBe(403);
    expect(forged.body).toEqual({ detail: expect.any(String) });
    const form = await web.withCsrf(request(texting.booted.stack.url).post(path)).type('form').send({ phone_number: victim });
    expect(form.status).toBe(415);
    const own = nextPhone();
    await web.requestPhoneCode(own);
    await waitFor(own, 1);
    expect(sentTo(victim)).toEqual([]);
  });
});

/** The development phone texts the assistant as any number: no page of another site may use it. */
describe.each(TRANSPORTS)('the development phone over the %s transport', (transport) => {
  let booted: TestStack;
  beforeAll(async () => {
    booted = await startTestStack('smsedgesdev', transport, { OFFLINE_TOKEN_DELAY_MS: '0' });
  });
  afterAll(async () => {
    await booted?.close();
  });

  const inbox = async (phone: string) =>
    (
      await request(booted.stack.url)
        .get(`/api/v1/dev/sms/messages?to=${encodeURIComponent(phone)}`)
        .expect(200)
    ).body.messages as {
      purpose: string;
    }[];
  const text = () => request(booted.stack.url).post('/api/v1/dev/sms/inbound');

  it("texts nothing for a stranger's form post from https://evil.example (403), nor for form-like or cross-site posts", async () => {
    const victim = transport === 'nats' ? '+14155559101' : '+14155559201';
    const forged = await text()
      .set('origin', EVIL)
      .set('content-type', 'application/x-www-form-urlencoded')
      .send(new URLSearchParams({ from: victim, body: 'transfer everything' }).toString());
    expect(forged.status).toBe(403);
    expect(forged.body).toEqual({ detail: expect.any(String) });
    for (const [label, type, body] of FORM_POSTS) {
      const res = await text().set('content-type', type).send(body);
      expect({ label, status: res.status }).toEqual({ label, status: 415 });
    }
    expect((await text().set('sec-fetch-site', 'cross-site').send({ from: victim, body: 'hi' })).status).toBe(403);
    // A text the development phone does take, then the victim's number has had no reply.
    const own = transport === 'nats' ? '+14155559102' : '+14155559202';
    await text().set('origin', new URL(booted.stack.url).origin).send({ from: own, body: 'Hello' }).expect(202);
    await eventually(async () => ((await inbox(own)).some((m) => m.purpose === 'reply') ? true : undefined), 15_000);
    expect(await inbox(victim)).toEqual([]);
  });
});
