import { bootEmbedded, type EmbeddedStack } from '@app/embedded';
import { systemCaller } from '@app/contracts';
import { SMS_RPC } from '@app/contracts/sms';
import { RpcCallError, RpcClient } from '@app/platform';
import { createTestEnvironment, FakeTwilio, TRANSPORTS, type TestEnvironment } from '@app/testing';

const caller = systemCaller('sms-test');

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

  function storedMessages(): Promise<{ id: string; to_number: string; status: string; provider_message_id: string | null; error: string | null }[]> {
    const sms = stack.services.find((s) => s.name === 'sms')!;
    return sms.dataSource.query('SELECT id, to_number, status, provider_message_id, error FROM outbound_message ORDER BY created_at');
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
    beforeAll(() => boot('smsconsole'));
    afterAll(shutdown);

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
      expect(logs()).toContainEqual(expect.objectContaining({ level: 'info', msg: 'SMS to +14155550123 : Your code is 246810', purpose: 'login_code' }));
      expect(await storedMessages()).toContainEqual(expect.objectContaining({ id: sent.message_id, status: 'delivered', error: null }));
      expect(logs()).toContainEqual(expect.objectContaining({ msg: expect.stringContaining('Texts go to the console') }));
    });

    it('lists the inbox newest first, as many as asked', async () => {
      for (const body of ['first', 'second', 'third']) {
        await rpc.call(SMS_RPC.send, { to: '+447700900123', body, purpose: 'notice' }, caller);
      }
      const two = await rpc.call(SMS_RPC.devInbox, { limit: 2 }, caller);
      expect(two.enabled).toBe(true);
      expect(two.messages.map((m) => m.body)).toEqual(['third', 'second']);
      const all = await rpc.call(SMS_RPC.devInbox, {}, caller);
      expect(all.messages.map((m) => m.body)).toEqual(['third', 'second', 'first', 'Your code is 246810']);
      expect(all.messages[0]).toMatchObject({ to: '+447700900123', provider: 'console', purpose: 'notice' });
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
      expect(await storedMessages()).toContainEqual(expect.objectContaining({ id: sent.message_id, status: 'queued', provider_message_id: received.sid }));
      expect(logs()).toContainEqual(expect.objectContaining({ level: 'info', to: '+14155550123', purpose: 'login_code', status: 'queued', sid: received.sid }));
      expect(logLines.join('\n')).not.toContain('135790');
      expect(logs()).toContainEqual(expect.objectContaining({ msg: `Texts are sent through Twilio from ${from}` }));
    });

    it('turns Twilio 21211 into a 400 with a clear detail, and keeps the message as failed', async () => {
      twilio.failNext({ status: 400, code: 21211, message: "The 'To' number +15005550001 is not a valid phone number." });
      const error = await failure(rpc.call(SMS_RPC.send, { to: '+15005550001', body: 'hello', purpose: 'notice' }, caller));
      expect(error.shape).toEqual({ status: 400, code: 'bad_request', detail: '+15005550001 is not a valid phone number.' });
      const stored = (await storedMessages()).find((m) => m.to_number === '+15005550001');
      expect(stored).toMatchObject({ status: 'failed', provider_message_id: null, error: "Twilio 21211 (HTTP 400): The 'To' number +15005550001 is not a valid phone number." });
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
      expect(await rpc.call(SMS_RPC.devInbox, { limit: 10 }, caller)).toEqual({ enabled: false, messages: [] });
    });

    it('answers 502 when Twilio cannot be reached', async () => {
      await twilio.stop();
      const error = await failure(rpc.call(SMS_RPC.send, { to: '+14155550123', body: 'hello', purpose: 'notice' }, caller));
      expect(error.shape).toMatchObject({ status: 502, detail: 'The text message provider could not be reached; please try again shortly.' });
      const stored = await storedMessages();
      expect(stored[stored.length - 1]).toMatchObject({ status: 'failed', error: expect.stringContaining('ECONNREFUSED') });
    });
  });
});
