import { TRANSPORTS } from '@app/testing';
import { ApiClient, phoneNumbers } from '../support/api-client';
import { ASSISTANT, smsStack } from '../support/sms-stack';

/**
 * Issue 21.4: after STOP the product texts nothing at all to the number, sign-in codes included.
 * The code request answers 409 with a `{detail}` saying the number opted out and how to opt back in
 * (text START to the service's number); after START a code is texted again. Texts are counted by
 * the fake Twilio the real SDK talks to.
 */
describe.each(TRANSPORTS)('sign-in codes after STOP over the %s transport', (transport) => {
  const texting = smsStack('smsoptout', transport, {
    PHONE_CODES_PER_NUMBER: '100',
  });
  const nextPhone = phoneNumbers(transport === 'nats' ? 8600 : 8700);
  const { sentTo, waitFor } = texting;
  const text = (from: string, body: string) => texting.textFrom(from, ASSISTANT, body);

  async function askForCode(phone: string) {
    const browser = new ApiClient(texting.booted.stack.url);
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
    const codeTexts = await texting.booted.db.query(
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
