import { AppLogger, prettyLine } from './logger';
import { maskPhone, redactFields, redactText } from './redact';

const secretsOnly = { personal: false };
const personal = { personal: true };

describe('redaction', () => {
  const capture = (redactPersonalData = false, format: 'json' | 'pretty' = 'json') => {
    const lines: string[] = [];
    return { lines, logger: new AppLogger({ service: 'auth', level: 'debug', format, sink: (l) => lines.push(l), redactPersonalData }) };
  };

  it('hides tokens, cookies, passwords and keys in fields at any depth, and keeps token counts', () => {
    const { lines, logger } = capture();
    logger.info({
      msg: 'signed in',
      token: 'opaque-session-token',
      request: { headers: { Authorization: 'Bearer abc.def.ghi', cookie: 'sid=s3cret', 'set-cookie': ['a=b'], 'x-api-key': 'k-123' } },
      oauth: { tokens: [{ access_token: 'ya29.xyz', id_token: 'eyJhbGciOi.x.y', refresh_token: 'r-1' }] },
      TWILIO_AUTH_TOKEN: '0123456789abcdef0123456789abcdef',
      settings: { client_secret: 'cs', password: 'hunter2', api_key: 'sk-abcdefghijklmnop' },
      usage: { max_tokens: 200, prompt_tokens: 12 },
    });
    const text = lines[0];
    for (const secret of [
      'opaque-session-token',
      'abc.def.ghi',
      's3cret',
      'a=b',
      'k-123',
      'ya29',
      'eyJhbGciOi',
      'r-1',
      '0123456789abcdef',
      '"cs"',
      'hunter2',
      'sk-abcdefghijklmnop',
    ]) {
      expect(text).not.toContain(secret);
    }
    const line = JSON.parse(text);
    expect(line).toMatchObject({ msg: 'signed in', token: '[REDACTED]', usage: { max_tokens: 200, prompt_tokens: 12 } });
    expect(line.request.headers).toEqual({
      Authorization: '[REDACTED]',
      cookie: '[REDACTED]',
      'set-cookie': '[REDACTED]',
      'x-api-key': '[REDACTED]',
    });
    expect(line.oauth.tokens[0]).toEqual({ access_token: '[REDACTED]', id_token: '[REDACTED]', refresh_token: '[REDACTED]' });
  });

  it('hides a sign-in code under `code`, but keeps error code names', () => {
    expect(redactFields({ code: '482913', nested: { code: '4/0AX4XfWh-oauth' } }, secretsOnly)).toEqual({
      code: '[REDACTED]',
      nested: { code: '[REDACTED]' },
    });
    expect(redactFields({ code: 'rate_limited', twilio_code: 21211 }, secretsOnly)).toEqual({ code: 'rate_limited', twilio_code: 21211 });
  });

  it('hides secrets inside messages and stacks: bearer tokens, query tokens and codes, API keys, JWTs, Twilio tokens', () => {
    const { lines, logger } = capture();
    logger.warn(
      'GET /auth/callback?code=4%2F0AX&state=xyz failed with Authorization: Bearer tok.en-123 and key sk-proj-ABCDEFGHIJKLMNOP',
      'Http',
    );
    logger.error(new Error('OpenAI said 401 for sk-live-1234567890abcdef; twilio token 0123456789abcdef0123456789abcdef'), 'Llm');
    logger.info(`id_token=eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJl and access_token: ya29.a0AfH6`);
    const all = lines.join('\n');
    for (const secret of ['4%2F0AX', 'tok.en-123', 'ABCDEFGHIJKLMNOP', '1234567890abcdef', 'eyJhbGciOiJSUzI1NiJ9', 'ya29'])
      expect(all).not.toContain(secret);
    expect(JSON.parse(lines[0]).msg).toBe(
      'GET /auth/callback?code=[REDACTED]&state=xyz failed with Authorization: Bearer [REDACTED] and key sk-[REDACTED]',
    );
    expect(JSON.parse(lines[1]).stack).toContain('sk-[REDACTED]');
  });

  it('in production, masks phone numbers in fields and texts, and codes in texts about a code', () => {
    const { lines, logger } = capture(true);
    logger.info('SMS to +14155550123 : 482913 is your Assistant sign-in code.', { purpose: 'login_code' }, 'ConsoleSender');
    logger.info({ msg: 'SMS sent through Twilio', to: '+14155550123', account: { phone_number: '+447700900123' }, count: 123456 });
    const all = lines.join('\n');
    expect(all).not.toContain('4155550123');
    expect(all).not.toContain('7700900123');
    expect(all).not.toContain('482913');
    expect(JSON.parse(lines[0]).msg).toBe('SMS to +•••••••••23 : 48•••• is your Assistant sign-in code.');
    expect(JSON.parse(lines[1])).toMatchObject({ to: '+•••••••••23', account: { phone_number: '+••••••••••23' }, count: 123456 });
  });

  it('outside production, leaves phone numbers and codes readable (the console sink is how a developer signs in)', () => {
    const { lines, logger } = capture(false);
    logger.info('SMS to +14155550123 : Your code is 246810', { to: '+14155550123' });
    expect(JSON.parse(lines[0])).toMatchObject({ msg: 'SMS to +14155550123 : Your code is 246810', to: '+14155550123' });
  });

  it('hides the password of a connection URL, keeping the user and the host', () => {
    expect(redactText('Cannot reach Redis at redis://:hunter2@cache:6379/0', secretsOnly)).toBe(
      'Cannot reach Redis at redis://:[REDACTED]@cache:6379/0',
    );
    expect(redactFields({ url: 'postgres://app:s3cret@db/app' }, secretsOnly)).toEqual({ url: 'postgres://app:[REDACTED]@db/app' });
    expect(redactText('see https://example.com/a:b@c', secretsOnly)).toBe('see https://example.com/a:b@c');
  });

  it('leaves numbers that are not codes alone, and survives cycles and class instances', () => {
    expect(redactText('Deleted 123456 old rows', personal)).toBe('Deleted 123456 old rows');
    const cycle: Record<string, unknown> = { name: 'a' };
    cycle.self = cycle;
    const when = new Date(0);
    expect(redactFields({ cycle, when }, secretsOnly)).toEqual({ cycle: { name: 'a', self: '[Circular]' }, when });
    expect(maskPhone('+15005550006')).toBe('+•••••••••06');
  });

  it('redacts the readable form as well, which keeps the service, context and request', () => {
    const { lines, logger } = capture(false, 'pretty');
    logger.info({ msg: 'login', token: 'abc' }, 'Auth');
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}\[auth\] Auth: login \{"token":"\[REDACTED\]"\}$/);
    expect(prettyLine('not json')).toBe('not json');
  });

  it('a child shares the output and writes its own service', () => {
    const { lines, logger } = capture();
    logger.child('sms').info('hello');
    expect(JSON.parse(lines[0])).toMatchObject({ service: 'sms', msg: 'hello', level: 'info' });
    expect(() => logger.flush()).not.toThrow();
  });
});
