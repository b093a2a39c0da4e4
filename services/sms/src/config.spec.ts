import { ConfigError, parseConfig } from '@app/platform';
import { incompleteTwilioCredentials, smsEnvSchema, smsProviderOf } from './config';

const twilio = { TWILIO_ACCOUNT_SID: `AC${'a'.repeat(32)}`, TWILIO_AUTH_TOKEN: 'token', TWILIO_FROM_NUMBER: '+15005550006' };
const parse = (env: NodeJS.ProcessEnv) => parseConfig('sms', smsEnvSchema, env);

describe('sms configuration', () => {
  it('sends to the console unless the three Twilio credentials are set', () => {
    expect(smsProviderOf(parse({}))).toBe('console');
    expect(smsProviderOf(parse(twilio))).toBe('twilio');
    expect(smsProviderOf(parse({ ...twilio, TWILIO_FROM_NUMBER: '' }))).toBe('console');
    expect(smsProviderOf(parse({ ...twilio, SMS_PROVIDER: 'console' }))).toBe('console');
    expect(parse({}).TWILIO_API_BASE_URL).toBe('https://api.twilio.com');
  });

  it('names what is missing when Twilio is asked for, and what is malformed', () => {
    const problems = (env: NodeJS.ProcessEnv) => {
      try {
        parse(env);
      } catch (error) {
        if (error instanceof ConfigError) return error.problems;
        throw error;
      }
      throw new Error('expected a configuration error');
    };
    expect(problems({ SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: 'SK123', TWILIO_API_BASE_URL: 'ftp://x' })).toEqual([
      expect.stringMatching(/^TWILIO_ACCOUNT_SID: must be a Twilio account SID/),
      expect.stringMatching(/^TWILIO_API_BASE_URL: must be a URL/),
      'TWILIO_AUTH_TOKEN: required when SMS_PROVIDER is twilio',
      'TWILIO_FROM_NUMBER: required when SMS_PROVIDER is twilio',
    ]);
    expect(() => parse({ SMS_PROVIDER: 'twilio' })).toThrow(/TWILIO_AUTH_TOKEN: required when SMS_PROVIDER is twilio/);
  });

  it('keeps the development inbox off unless asked, and refuses it in production', () => {
    expect(parse({}).DEV_SMS_INBOX).toBe(false);
    expect(parse({ DEV_SMS_INBOX: 'true' }).DEV_SMS_INBOX).toBe(true);
    expect(parse({ DEV_SMS_INBOX: 'true', NODE_ENV: 'test' }).DEV_SMS_INBOX).toBe(true);
    expect(() => parse({ DEV_SMS_INBOX: 'true', NODE_ENV: 'production' })).toThrow(
      /DEV_SMS_INBOX: must be off when NODE_ENV is production/,
    );
    expect(parse({ DEV_SMS_INBOX: 'false', NODE_ENV: 'production' }).DEV_SMS_INBOX).toBe(false);
    expect(parse({}).SMS_CODE_TEXT_RETENTION_HOURS).toBe(24);
    expect(() => parse({ SMS_CODE_TEXT_RETENTION_HOURS: '0' })).toThrow(/SMS_CODE_TEXT_RETENTION_HOURS/);
  });

  it('notices credentials set only in part', () => {
    expect(incompleteTwilioCredentials(parse({ TWILIO_AUTH_TOKEN: 'x' }))).toEqual({
      set: ['TWILIO_AUTH_TOKEN'],
      missing: ['TWILIO_ACCOUNT_SID', 'TWILIO_FROM_NUMBER'],
    });
    expect(incompleteTwilioCredentials(parse(twilio))).toBeNull();
    expect(incompleteTwilioCredentials(parse({}))).toBeNull();
  });

  it("keeps the group pool apart from the assistant's own number, each number once", () => {
    expect(parse({}).SMS_DEV_GROUP_NUMBERS).toEqual(['+15550100001', '+15550100002', '+15550100003']);
    expect(() => parse({ ...twilio, SMS_GROUP_NUMBERS: '+15005550007,+15005550006' })).toThrow(/SMS_GROUP_NUMBERS.*own number/);
    expect(() => parse({ SMS_GROUP_NUMBERS: '+15005550007,+15005550007' })).toThrow(/SMS_GROUP_NUMBERS.*twice/);
    expect(() => parse({ SMS_DEV_GROUP_NUMBERS: '+15550100000' })).toThrow(/SMS_DEV_GROUP_NUMBERS/);
    expect(parse({ BLOCKED_COUNTRIES: 'cn, ru' }).BLOCKED_COUNTRIES).toEqual(['CN', 'RU']);
  });
});
