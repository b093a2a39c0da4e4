import { FakeTwilio, type TransportKind } from '@app/testing';
import { ApiClient, eventually } from './api-client';
import { startTestStack, type TestStack } from './test-stack';

/** The assistant's own number in the SMS suites (Twilio's magic test number). */
export const ASSISTANT = '+15005550006';
export const INBOUND = '/api/v1/sms/twilio/inbound';
export const STATUS = '/api/v1/sms/twilio/status';

type InboundExtra = Partial<Parameters<FakeTwilio['sendInbound']>[1]>;

/**
 * The product booted for an SMS suite, its texts going through a fake Twilio the real SDK talks
 * to (started before and stopped after the suite): `env` adds the suite's own settings. Helpers
 * read what was texted, post signed webhooks and sign a portal user in by a texted code.
 */
export function smsStack(label: string, transport: TransportKind, env: NodeJS.ProcessEnv = {}) {
  const twilio = new FakeTwilio();
  let booted: TestStack | undefined;

  beforeAll(async () => {
    await twilio.start();
    booted = await startTestStack(label, transport, {
      OFFLINE_TOKEN_DELAY_MS: '0',
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: twilio.authToken,
      TWILIO_FROM_NUMBER: ASSISTANT,
      TWILIO_API_BASE_URL: twilio.url,
      PHONE_CODES_PER_IP: '1000',
      ...env,
    });
  });

  afterAll(async () => {
    await booted?.close();
    await twilio.stop();
  });

  const stack = () => {
    if (!booted) throw new Error('The SMS stack is not booted yet (use it inside a test or a beforeAll).');
    return booted;
  };
  const url = (path: string) => `${stack().stack.url}${path}`;
  const sentTo = (phone: string) => twilio.messagesTo(phone);
  /** The texts sent to `phone` once there are at least `count`. */
  const waitFor = (phone: string, count: number, ms = 15_000) =>
    eventually(async () => (sentTo(phone).length >= count ? sentTo(phone) : undefined), ms);
  /** A signed webhook as Twilio posts it for a text from `from` to `to`. */
  const textFrom = (from: string, to: string, body: string, extra: InboundExtra = {}) =>
    twilio.sendInbound(url(INBOUND), { from, to, body, ...extra });

  /** A portal user signed in by the code texted to `phone` (read at the fake Twilio). */
  async function signedIn(phone: string): Promise<ApiClient> {
    const web = new ApiClient(stack().stack.url);
    await web.fetchCsrf();
    const already = sentTo(phone).length;
    await web.requestPhoneCode(phone);
    const code = (await waitFor(phone, already + 1)).at(-1)!.body.match(/\b(\d{6})\b/)![1];
    web.token = decodeURIComponent(String((await web.phoneCallback(phone, code).expect(302)).headers.location).split('#access_token=')[1]);
    return web;
  }

  return {
    twilio,
    /** The booted product (its URL, its database client). */
    get booted(): TestStack {
      return stack();
    },
    url,
    sentTo,
    waitFor,
    textFrom,
    signedIn,
  };
}
