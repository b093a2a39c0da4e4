import request from 'supertest';

/** A browser-like client of the gateway: keeps the CSRF cookie and a bearer token, as the web client does. */
export class ApiClient {
  token: string | null = null;
  /** The `phone_login` cookie (name=value) of the last code request. */
  phoneLogin: string | null = null;
  private csrf: { token: string; cookie: string } | null = null;

  constructor(readonly baseUrl: string) {}

  get http() {
    return request(this.baseUrl);
  }

  /** GET /auth/csrf-token, then remember the header value and the cookie. */
  async fetchCsrf(): Promise<{ token: string; cookie: string }> {
    const res = await this.http.get('/api/v1/auth/csrf-token').expect(200);
    const token = res.headers['x-csrf-token'];
    const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('csrf_token='))!.split(';')[0];
    this.csrf = { token, cookie };
    return this.csrf;
  }

  auth<T extends request.Test>(test: T): T {
    if (this.token) test.set('Authorization', `Bearer ${this.token}`);
    return test;
  }

  /** A request that carries the CSRF header and cookie (login and logout calls). */
  withCsrf<T extends request.Test>(test: T): T {
    if (!this.csrf) throw new Error('fetchCsrf first');
    return this.auth(test).set('X-CSRF-Token', this.csrf.token).set('Cookie', this.csrf.cookie);
  }

  /** The 6-digit code the console sink "texted" to a number, read from the development inbox. */
  async smsCodeFor(phone: string): Promise<string> {
    return eventually(async () => {
      const res = await this.http.get(`/api/v1/dev/sms/messages?to=${encodeURIComponent(phone)}`).expect(200);
      const message = (res.body.messages as { to: string; body: string }[]).find((m) => m.to === phone);
      return message?.body.match(/\b(\d{6})\b/)?.[1];
    });
  }

  /** Asks for a sign-in code, keeping the `phone_login` cookie as the browser does (only it can complete the code). */
  async requestPhoneCode(phone: string, body: object = {}) {
    const res = await this.withCsrf(this.http.post('/api/v1/auth/login/phone_number')).send({ phone_number: phone, ...body });
    const cookie = ((res.headers['set-cookie'] as unknown as string[] | undefined) ?? []).find((c) => c.startsWith('phone_login='));
    if (cookie) this.phoneLogin = cookie.split(';')[0];
    return res;
  }

  /** The code callback as this browser navigates to it: with the `phone_login` cookie of its last code request. */
  phoneCallback(phone: string, code: string, extraQuery = '') {
    const test = this.http.get(`/api/v1/auth/callback/phone_number?phone_number=${encodeURIComponent(phone)}&code=${code}${extraQuery}`);
    return this.phoneLogin ? test.set('Cookie', this.phoneLogin) : test;
  }

  /** Signs in by texted code, as the browser does (the callback's redirect carries the token). */
  async signInByPhone(phone: string, extraQuery = ''): Promise<string> {
    await this.fetchCsrf();
    const sent = await this.requestPhoneCode(phone);
    if (sent.status !== 200) throw new Error(`The code request answered ${sent.status}: ${JSON.stringify(sent.body)}`);
    const code = await this.smsCodeFor(phone);
    const res = await this.phoneCallback(phone, code, extraQuery).expect(302);
    const token = decodeURIComponent(String(res.headers.location).split('#access_token=')[1] ?? '');
    if (!token) throw new Error(`No token after the phone callback: ${res.headers.location}`);
    this.token = token;
    return token;
  }

  async guest(): Promise<string> {
    const res = await this.http.post('/api/v1/auth/anon').expect(200);
    this.token = res.body.token;
    return this.token!;
  }

  get(path: string) {
    return this.auth(this.http.get(path));
  }
  post(path: string, body?: object) {
    return this.auth(this.http.post(path)).send(body ?? {});
  }
  delete(path: string) {
    return this.auth(this.http.delete(path));
  }
}

/** Collects a binary answer whole (an export's zip, a file's bytes): supertest buffers only text and JSON by itself. */
export function binary<T extends request.Test>(test: T): T {
  return test.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  }) as T;
}

export async function eventually<T>(probe: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Test phone numbers (+1 415 555 xxxx), distinct within a run and between suites given different bases. */
export function phoneNumbers(base: number): () => string {
  let next = 0;
  return () => `+1415555${String(base + (next++ % 1000)).padStart(4, '0')}`;
}
