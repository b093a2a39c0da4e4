import { createHmac } from 'node:crypto';
import twilio from 'twilio';
import { FakeTwilio } from './fake-twilio';

describe('FakeTwilio', () => {
  const fake = new FakeTwilio();
  let client: twilio.Twilio;

  beforeAll(async () => {
    const { url } = await fake.start();
    client = twilio(fake.accountSid, fake.authToken);
    client.api.baseUrl = url;
  });
  afterAll(() => fake.stop());
  beforeEach(() => fake.reset());

  it('accepts a message sent by the real SDK and records it', async () => {
    const message = await client.messages.create({ to: '+14155550123', from: '+15005550006', body: 'Your code is 123456' });
    expect(message.sid).toMatch(/^SM[0-9a-f]{32}$/);
    expect(message.status).toBe('queued');
    expect(message.accountSid).toBe(fake.accountSid);
    expect(message.dateCreated).toBeInstanceOf(Date);
    expect(fake.messages()).toEqual([
      expect.objectContaining({ sid: message.sid, to: '+14155550123', from: '+15005550006', body: 'Your code is 123456' }),
    ]);
  });

  it('refuses wrong credentials like Twilio (401, code 20003)', async () => {
    const intruder = twilio(fake.accountSid, 'not-the-token');
    intruder.api.baseUrl = fake.url;
    await expect(intruder.messages.create({ to: '+14155550123', from: '+15005550006', body: 'x' })).rejects.toMatchObject({
      status: 401,
      code: 20003,
    });
    expect(fake.messages()).toEqual([]);
    expect(fake.requests()).toEqual([expect.objectContaining({ authenticated: false, status: 401 })]);
  });

  it('refuses the old token once it is rotated', async () => {
    const old = twilio(fake.accountSid, fake.authToken);
    old.api.baseUrl = fake.url;
    const previous = fake.authToken;
    fake.rotateAuthToken();
    try {
      await expect(old.messages.create({ to: '+14155550123', from: '+15005550006', body: 'x' })).rejects.toMatchObject({
        status: 401,
        code: 20003,
      });
    } finally {
      fake.rotateAuthToken(previous);
    }
  });

  it('plays a scripted failure once, with Twilio error shape', async () => {
    fake.failNext({ status: 400, code: 21211, message: "The 'To' number +15551234 is not a valid phone number." });
    await expect(client.messages.create({ to: '+15551234', from: '+15005550006', body: 'x' })).rejects.toMatchObject({
      status: 400,
      code: 21211,
      message: "The 'To' number +15551234 is not a valid phone number.",
      moreInfo: 'https://www.twilio.com/docs/errors/21211',
    });
    await expect(client.messages.create({ to: '+14155550123', from: '+15005550006', body: 'x' })).resolves.toMatchObject({
      status: 'queued',
    });
  });

  it('computes X-Twilio-Signature as Twilio documents it, and the SDK validates it', () => {
    const url = 'https://example.com/api/v1/sms/twilio/inbound';
    const params = { From: '+14155550123', To: '+15005550006', Body: 'hello', MessageSid: 'SM0123' };
    const data =
      url +
      Object.keys(params)
        .sort()
        .map((k) => k + params[k as keyof typeof params])
        .join('');
    const expected = createHmac('sha1', fake.authToken).update(data).digest('base64');
    expect(fake.signature(url, params)).toBe(expected);
    expect(twilio.validateRequest(fake.authToken, expected, url, params)).toBe(true);
    expect(fake.validSignature(expected, url, { ...params, Body: 'tampered' })).toBe(false);
  });
});
