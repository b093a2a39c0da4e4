import { randomBytes } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import { bootEmbedded, type EmbeddedStack } from '@app/embedded';
import { systemCaller } from '@app/contracts';
import { SMS_RPC } from '@app/contracts/sms';
import { RpcCallError, RpcClient } from '@app/platform';
import { MessagesService } from '@app/service-sms';
import { createTestEnvironment, FakeTwilio, TRANSPORTS, type TestEnvironment } from '@app/testing';
import { strFromU8, unzipSync } from 'fflate';
import request from 'supertest';
import { ApiClient, binary, phoneNumbers } from '../support/api-client';

const caller = systemCaller('sms-test');

/** An address of this machine that is not the loopback (to reach the gateway from "elsewhere"). */
function externalAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((address) => address && address.family === 'IPv4' && !address.internal)?.address;
}

/** Reads a zip answer whole. */
/** The sms service through the bus (it has no HTTP route yet), with the console sink and with Twilio (a local fake driven by the real SDK). */
describe.each(TRANSPORTS)('sms service over the %s transport', (transport) => {
  let environment: TestEnvironment;
  let stack: EmbeddedStack;
  let rpc: RpcClient;
  let logLines: string[];

  async function boot(label: string, env: NodeJS.ProcessEnv = {}) {
    logLines = [];
    environment = await createTestEnvironment(label, transport);
    stack = await bootEmbedded({ ...environment.env, LOG_LEVEL: 'info', ...env }, { sink: (line) => logLines.push(line) });
    rpc = new RpcClient(stack.runtime.bus, 5000);
  }

  async function shutdown() {
    await stack?.close();
    await environment?.cleanup();
  }

  function storedMessages(): Promise<
    {
      id: string;
      to_number: string;
      user_id: string | null;
      body: string;
      status: string;
      provider_message_id: string | null;
      error: string | null;
    }[]
  > {
    const sms = stack.services.find((s) => s.name === 'sms')!;
    return sms.dataSource.query(
      'SELECT id, to_number, user_id, body, status, provider_message_id, error FROM outbound_message ORDER BY created_at',
    );
  }

  function logs(): Record<string, unknown>[] {
    return logLines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.service === 'sms');
  }

  async function failure(promise: Promise<unknown>): Promise<RpcCallError> {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RpcCallError);
    return error as RpcCallError;
  }

  describe('without Twilio: the console sink and the development inbox', () => {
    beforeAll(() => boot('smsconsole', { DEV_SMS_INBOX: 'true', HOST: '0.0.0.0' }));
    afterAll(shutdown);
    const nextPhone = phoneNumbers(transport === 'nats' ? 7100 : 7200);
    const inbox = (to: string) => request(stack.url).get(`/api/v1/dev/sms/messages?to=${encodeURIComponent(to)}`);

    it('sends to the console: one clear log line, stored as delivered', async () => {
      const sent = await rpc.call(SMS_RPC.send, { to: '+14155550123', body: 'Your code is 246810', purpose: 'login_code' }, caller);
      expect(sent).toEqual({
        message_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        to: '+14155550123',
        body: 'Your code is 246810',
        purpose: 'login_code',
        provider: 'console',
        status: 'delivered',
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      expect(logs()).toContainEqual(
        expect.objectContaining({ level: 'info', msg: 'SMS to +14155550123 : Your code is 246810', purpose: 'login_code' }),
      );
      expect(await storedMessages()).toContainEqual(expect.objectContaining({ id: sent.message_id, status: 'delivered', error: null }));
      expect(logs()).toContainEqual(expect.objectContaining({ msg: expect.stringContaining('Texts go to the console') }));
    });

    it("lists one number's texts newest first, as many as asked, and never another number's", async () => {
      for (const body of ['first', 'second', 'third']) {
        await rpc.call(SMS_RPC.send, { to: '+447700900123', body, purpose: 'notice' }, caller);
      }
      const two = await rpc.call(SMS_RPC.devInbox, { to: '+447700900123', limit: 2 }, caller);
      expect(two.enabled).toBe(true);
      expect(two.messages.map((m) => m.body)).toEqual(['third', 'second']);
      const all = await rpc.call(SMS_RPC.devInbox, { to: '+447700900123' }, caller);
      expect(all.messages.map((m) => m.body)).toEqual(['third', 'second', 'first']);
      expect(all.messages[0]).toMatchObject({ to: '+447700900123', provider: 'console', purpose: 'notice' });
      expect((await rpc.call(SMS_RPC.devInbox, { to: '+14155550123' }, caller)).messages.map((m) => m.body)).toEqual([
        'Your code is 246810',
      ]);
      // Without a number it says only whether it is on.
      expect(await rpc.call(SMS_RPC.devInbox, {}, caller)).toEqual({ enabled: true, messages: [] });
    });

    it('serves the inbox over HTTP to this machine only, for the number asked, never all numbers', async () => {
      await rpc.call(SMS_RPC.send, { to: '+447700900456', body: 'Your code is 777111', purpose: 'login_code' }, caller);
      const res = await inbox('+447700900456').expect(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body.messages.map((m: { body: string }) => m.body)).toEqual(['Your code is 777111']);
      // A raw "+" in a query string reads as a space: both spellings mean the same number.
      expect((await request(stack.url).get('/api/v1/dev/sms/messages?to=+447700900456').expect(200)).body.messages).toHaveLength(1);
      // No number, or a malformed one: 422 naming the field, and nothing listed.
      const missing = await request(stack.url).get('/api/v1/dev/sms/messages').expect(422);
      expect(missing.body).toEqual({ detail: expect.stringMatching(/^to: /) });
      await request(stack.url).get('/api/v1/dev/sms/messages?to=all').expect(422);
      await request(stack.url).get('/api/v1/dev/sms/messages?to=%2B447700900456%00').expect(422);
      // Whatever a proxy says, and whatever name the page used, only the machine itself is served.
      for (const [name, value] of [
        ['X-Forwarded-For', '127.0.0.1'],
        ['Forwarded', 'for=127.0.0.1'],
        ['X-Real-IP', '127.0.0.1'],
        ['Host', 'attacker.example'],
        ['Host', 'attacker.example:8080'],
      ]) {
        const refused = await inbox('+447700900456').set(name, value).expect(404);
        expect(refused.body).toEqual({ detail: 'Not Found' });
        await request(stack.url).get('/api/v1/dev/sms?to=%2B447700900456').set(name, value).expect(404);
      }
      await inbox('+447700900456').set('Host', 'localhost').expect(200);
    });

    const external = externalAddress();
    (external ? it : it.skip)('refuses a request whose socket is not the loopback, even naming localhost', async () => {
      const port = new URL(stack.url).port;
      const remote = request(`http://${external}:${port}`);
      const refused = await remote.get('/api/v1/dev/sms/messages?to=%2B447700900456').set('Host', `localhost:${port}`).expect(404);
      expect(refused.body).toEqual({ detail: 'Not Found' });
      await remote.get('/api/v1/dev/sms').set('Host', `127.0.0.1:${port}`).expect(404);
      // The same gateway answers that address otherwise.
      await remote.get('/healthz').expect(200);
    });

    it('shows a form, then the texts of the number asked for only', async () => {
      await rpc.call(SMS_RPC.send, { to: '+447700900789', body: 'Your code is 424242', purpose: 'login_code' }, caller);
      const form = await request(stack.url).get('/api/v1/dev/sms').expect(200);
      expect(form.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(form.text).toContain('<form method="get" action="/api/v1/dev/sms">');
      expect(form.text).not.toMatch(/Your code is/);
      const page = await request(stack.url).get('/api/v1/dev/sms?to=%2B447700900789').expect(200);
      expect(page.text).toContain('Your code is 424242');
      expect(page.text).not.toContain('777111');
      expect(page.text).not.toContain('246810');
      const bad = await request(stack.url).get('/api/v1/dev/sms?to=%3Cscript%3E').expect(200);
      expect(bad.text).not.toContain('<script>');
      expect(bad.text).not.toMatch(/Your code is/);
    });

    it("exports the sign-in code texts sent to the account's number, to the account only", async () => {
      const phone = nextPhone();
      const owner = new ApiClient(stack.url);
      await owner.signInByPhone(phone);
      const code = (await storedMessages()).filter((m) => m.to_number === phone).map((m) => m.body);
      expect(code).toEqual([expect.stringMatching(/^\d{6} is your Assistant sign-in code/)]);
      const ownerId = (await owner.get('/api/v1/auth/me').expect(200)).body.user_id;

      const exported = await binary(owner.get('/api/v1/users/me/export')).expect(200);
      const sms = JSON.parse(strFromU8(unzipSync(new Uint8Array(exported.body as Buffer))['sms.json']));
      expect(sms.outbound_message).toEqual([
        expect.objectContaining({ to_number: phone, body: code[0], purpose: 'login_code', user_id: ownerId }),
      ]);

      // Someone else (another account, a guest) gets none of it.
      const other = new ApiClient(stack.url);
      await other.signInByPhone(nextPhone());
      const guest = new ApiClient(stack.url);
      await guest.guest();
      for (const api of [other, guest]) {
        const theirs = await binary(api.get('/api/v1/users/me/export')).expect(200);
        const text = strFromU8(unzipSync(new Uint8Array(theirs.body as Buffer))['sms.json']);
        expect(text).not.toContain(phone);
        expect(text).not.toContain(code[0]);
      }
    });

    it('leaves no text to the number once the account is deleted (also those sent before it existed)', async () => {
      const phone = nextPhone();
      const api = new ApiClient(stack.url);
      await api.signInByPhone(phone);
      // A second code to the same number, then a text that names the account.
      const again = new ApiClient(stack.url);
      await again.fetchCsrf();
      await again.withCsrf(again.http.post('/api/v1/auth/login/phone_number')).send({ phone_number: phone }).expect(200);
      const userId = (await api.get('/api/v1/auth/me').expect(200)).body.user_id;
      await rpc.call(SMS_RPC.send, { to: '+447700900999', body: 'A notice for the account', purpose: 'notice', user_id: userId }, caller);
      await rpc.call(SMS_RPC.send, { to: '+447700900998', body: 'Someone else', purpose: 'notice' }, caller);
      expect((await storedMessages()).filter((m) => m.to_number === phone)).toHaveLength(2);

      await api.delete('/api/v1/users/me').expect(204);
      const sms = stack.services.find((s) => s.name === 'sms')!;
      const left = await sms.dataSource.query('SELECT count(*)::int AS n FROM outbound_message WHERE to_number = $1 OR user_id = $2', [
        phone,
        userId,
      ]);
      expect(left[0].n).toBe(0);
      expect((await storedMessages()).some((m) => m.to_number === '+447700900998')).toBe(true);
    });

    it('deletes sign-in code texts after the retention, keeping other texts', async () => {
      const sms = stack.services.find((s) => s.name === 'sms')!;
      await rpc.call(SMS_RPC.send, { to: '+447700900321', body: 'Your code is 135135', purpose: 'login_code' }, caller);
      await rpc.call(SMS_RPC.send, { to: '+447700900321', body: 'A notice', purpose: 'notice' }, caller);
      await sms.dataSource.query("UPDATE outbound_message SET created_at = now() - interval '25 hours' WHERE to_number = '+447700900321'");
      await rpc.call(SMS_RPC.send, { to: '+447700900321', body: 'Your code is 246246', purpose: 'login_code' }, caller);
      await sms.app.get(MessagesService).deleteExpiredCodeTexts();
      const left = (await storedMessages()).filter((m) => m.to_number === '+447700900321').map((m) => m.body);
      expect(left.sort()).toEqual(['A notice', 'Your code is 246246']);
    });

    it('refuses a number that is not E.164 with 400, from its own validation, and stores nothing', async () => {
      const before = (await storedMessages()).length;
      const error = await failure(rpc.call(SMS_RPC.send, { to: '0123 456', body: 'x', purpose: 'notice' }, caller));
      expect(error.shape).toMatchObject({ status: 400, code: 'bad_request' });
      expect(error.shape.detail).toMatch(/^to: must be a phone number in international form/);
      const extra = await failure(rpc.call(SMS_RPC.send, { to: '+14155550123', body: '', purpose: 'notice' }, caller));
      expect(extra.shape.status).toBe(400);
      expect(await storedMessages()).toHaveLength(before);
    });
  });

  describe('by default (DEV_SMS_INBOX unset): no inbox, even for this machine', () => {
    beforeAll(() => boot('smsnoinbox'));
    afterAll(shutdown);

    it('answers 404 for the page and the list, and the service says it is off', async () => {
      await rpc.call(SMS_RPC.send, { to: '+14155550123', body: 'Your code is 246810', purpose: 'login_code' }, caller);
      await request(stack.url).get('/api/v1/dev/sms/messages?to=%2B14155550123').expect(404, { detail: 'Not Found' });
      await request(stack.url).get('/api/v1/dev/sms/messages').expect(404, { detail: 'Not Found' });
      await request(stack.url).get('/api/v1/dev/sms').expect(404);
      expect(await rpc.call(SMS_RPC.devInbox, { to: '+14155550123' }, caller)).toEqual({ enabled: false, messages: [] });
    });
  });

  describe('in production', () => {
    const twilio = new FakeTwilio();

    beforeAll(async () => {
      const { url } = await twilio.start();
      await boot('smsprod', {
        NODE_ENV: 'production',
        AUTH_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        TWILIO_ACCOUNT_SID: twilio.accountSid,
        TWILIO_AUTH_TOKEN: twilio.authToken,
        TWILIO_FROM_NUMBER: '+15005550006',
        TWILIO_API_BASE_URL: url,
      });
    });
    afterAll(async () => {
      await shutdown();
      await twilio.stop();
    });

    it('never writes a sign-in code in full: not to any log, not to the stored copy', async () => {
      const api = new ApiClient(stack.url);
      await api.fetchCsrf();
      await api.withCsrf(api.http.post('/api/v1/auth/login/phone_number')).send({ phone_number: '+14155550166' }).expect(200);
      const code = twilio
        .messages()
        .find((m) => m.to === '+14155550166')
        ?.body.match(/\b(\d{6})\b/)?.[1];
      expect(code).toMatch(/^\d{6}$/);
      expect(logLines.join('\n')).not.toContain(code);
      const stored = (await storedMessages()).find((m) => m.to_number === '+14155550166')!;
      expect(stored.body).toMatch(new RegExp(`^${code!.slice(0, 2)}•••• is your Assistant sign-in code`));
      expect(stored.body).not.toContain(code);
    });

    it('has no development inbox at all', async () => {
      await rpc
        .call(SMS_RPC.devInbox, { to: '+14155550166' }, caller)
        .then((inbox) => expect(inbox).toEqual({ enabled: false, messages: [] }));
      await request(stack.url).get('/api/v1/dev/sms/messages?to=%2B14155550166').expect(404);
      await request(stack.url).get('/api/v1/dev/sms').expect(404);
    });

    it('refuses to start with DEV_SMS_INBOX on', async () => {
      const environment = await createTestEnvironment('smsprodinbox', transport);
      try {
        await expect(
          bootEmbedded({
            ...environment.env,
            NODE_ENV: 'production',
            DEV_SMS_INBOX: 'true',
            AUTH_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
          }),
        ).rejects.toThrow(/DEV_SMS_INBOX: must be off when NODE_ENV is production/);
      } finally {
        await environment.cleanup();
      }
    });
  });

  describe('with Twilio', () => {
    const twilio = new FakeTwilio();
    const from = '+15005550006';

    beforeAll(async () => {
      const { url } = await twilio.start();
      await boot('smstwilio', {
        TWILIO_ACCOUNT_SID: twilio.accountSid,
        TWILIO_AUTH_TOKEN: twilio.authToken,
        TWILIO_FROM_NUMBER: from,
        TWILIO_API_BASE_URL: url,
      });
    });
    afterAll(async () => {
      await shutdown();
      await twilio.stop();
    });

    it('sends through the real SDK; Twilio receives To, From and Body; the log has the SID but never the body', async () => {
      const sent = await rpc.call(SMS_RPC.send, { to: '+14155550123', body: 'Your code is 135790', purpose: 'login_code' }, caller);
      expect(sent).toMatchObject({ to: '+14155550123', body: 'Your code is 135790', provider: 'twilio', status: 'queued' });
      const [received] = twilio.messages();
      expect(received).toMatchObject({ to: '+14155550123', from, body: 'Your code is 135790' });
      expect(await storedMessages()).toContainEqual(
        expect.objectContaining({ id: sent.message_id, status: 'queued', provider_message_id: received.sid }),
      );
      expect(logs()).toContainEqual(
        expect.objectContaining({ level: 'info', to: '+14155550123', purpose: 'login_code', status: 'queued', sid: received.sid }),
      );
      expect(logLines.join('\n')).not.toContain('135790');
      expect(logs()).toContainEqual(expect.objectContaining({ msg: `Texts are sent through Twilio from ${from}` }));
    });

    it('turns Twilio 21211 into a 400 with a clear detail, and keeps the message as failed', async () => {
      twilio.failNext({ status: 400, code: 21211, message: "The 'To' number +15005550001 is not a valid phone number." });
      const error = await failure(rpc.call(SMS_RPC.send, { to: '+15005550001', body: 'hello', purpose: 'notice' }, caller));
      expect(error.shape).toEqual({ status: 400, code: 'bad_request', detail: '+15005550001 is not a valid phone number.' });
      const stored = (await storedMessages()).find((m) => m.to_number === '+15005550001');
      expect(stored).toMatchObject({
        status: 'failed',
        provider_message_id: null,
        error: "Twilio 21211 (HTTP 400): The 'To' number +15005550001 is not a valid phone number.",
      });
    });

    it('turns an unsubscribed number (21610, STOP) into a 403 saying so', async () => {
      twilio.failNext({ status: 400, code: 21610, message: 'Attempt to send to unsubscribed recipient' });
      const error = await failure(rpc.call(SMS_RPC.send, { to: '+15005550004', body: 'hello', purpose: 'reply' }, caller));
      expect(error.shape.status).toBe(403);
      expect(error.shape.detail).toMatch(/\+15005550004 has unsubscribed .*STOP/);
    });

    it('answers 502 when Twilio refuses the credentials, without leaking them', async () => {
      const token = twilio.authToken;
      twilio.rotateAuthToken();
      try {
        const error = await failure(rpc.call(SMS_RPC.send, { to: '+14155550123', body: 'hello', purpose: 'notice' }, caller));
        expect(error.shape.status).toBe(502);
        expect(error.shape.detail).toMatch(/cannot be sent right now/);
        expect(JSON.stringify(error.shape)).not.toContain(token);
        const stored = await storedMessages();
        expect(stored[stored.length - 1]).toMatchObject({ status: 'failed', error: expect.stringContaining('20003') });
        expect(JSON.stringify(stored)).not.toContain(token);
        expect(logLines.join('\n')).not.toContain(token);
      } finally {
        twilio.rotateAuthToken(token);
      }
    });

    it('has no development inbox: texts really leave', async () => {
      expect(await rpc.call(SMS_RPC.devInbox, { to: '+14155550123', limit: 10 }, caller)).toEqual({ enabled: false, messages: [] });
    });

    it('answers 502 when Twilio cannot be reached', async () => {
      await twilio.stop();
      const error = await failure(rpc.call(SMS_RPC.send, { to: '+14155550123', body: 'hello', purpose: 'notice' }, caller));
      expect(error.shape).toMatchObject({
        status: 502,
        detail: 'The text message provider could not be reached; please try again shortly.',
      });
      const stored = await storedMessages();
      expect(stored[stored.length - 1]).toMatchObject({ status: 'failed', error: expect.stringContaining('ECONNREFUSED') });
    });
  });
});
