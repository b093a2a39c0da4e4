import { FakeTwilio, TRANSPORTS } from '@app/testing';
import { ApiClient, eventually, phoneNumbers } from '../support/api-client';
import { startTestStack, type TestStack } from '../support/test-stack';

const ASSISTANT = '+15005550006';
const INBOUND = '/api/v1/sms/twilio/inbound';

/**
 * Issue 21.4: after STOP the product texts nothing at all to the number, sign-in codes included.
 * The code request answers 409 with a `{detail}` saying the number opted out and how to opt back in
 * (text START to the service's number); after START a code is texted again. Texts are counted by
 * the fake Twilio the real SDK talks to.
 */
describe.each(TRANSPORTS)('sign-in codes after STOP over the %s transport', (transport) => {
  const twilio = new FakeTwilio();
  let booted: TestStack;
  const nextPhone = phoneNumbers(transport === 'nats' ? 8600 : 8700);
  const text = (from: string, body: string) => twilio.sendInbound(`${booted.stack.url}${INBOUND}`, { from, to: ASSISTANT, body });
  const sentTo = (phone: string) => twilio.messagesTo(phone);
  const waitFor = (phone: string, count: number) =>
    eventually(async () => (sentTo(phone).length >= count ? sentTo(phone) : undefined), 15_000);

  beforeAll(async () => {
    await twilio.start();
    booted = await startTestStack('smsoptout', transport, {
      OFFLINE_TOKEN_DELAY_MS: '0',
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: twilio.authToken,
      TWILIO_FROM_NUMBER: ASSISTANT,
      TWILIO_API_BASE_URL: twilio.url,
      PHONE_CODES_PER_IP: '1000',
      PHONE_CODES_PER_NUMBER: '100',
    });
  });

  afterAll(async () => {
    await booted?.close();
    await twilio.stop();
  });

  async function askForCode(phone: string) {
    const browser = new ApiClient(booted.stack.url);
    await browser.guest();
    await browser.fetchCsrf();
    return browser.requestPhoneCode(phone);
  }

  it('texts no sign-in code to a number that texted STOP, says how to opt back in, and texts one again after START', async () => {
    const phone = nextPhone();
    await text(phone, 'STOP');
    const [confirmation] = await waitFor(phone, 1);
    expect(confirmation.body).toMatch(/unsubscribed/i);

    const refused = await askForCode(phone);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      detail: `This number has opted out of texts from the assistant (it texted STOP), so no sign-in code can be sent to it. To opt back in, text START to ${ASSISTANT}, then ask for a code again.`,
    });
    // Nothing at all: no code text (the stored texts and Twilio agree), also when asked again.
    expect((await askForCode(phone)).status).toBe(409);
    const codeTexts = await booted.db.query(
      "SELECT count(*)::int AS n FROM sms.outbound_message WHERE to_number = $1 AND purpose = 'login_code'",
      [phone],
    );
    expect(codeTexts.rows[0].n).toBe(0);
    expect(sentTo(phone)).toHaveLength(1);

    await text(phone, 'START');
    await waitFor(phone, 2);
    expect((await askForCode(phone)).status).toBe(200);
    const [, , code] = await waitFor(phone, 3);
    expect(code.body).toMatch(/\b\d{6}\b is your Assistant sign-in code/);
  });
});
