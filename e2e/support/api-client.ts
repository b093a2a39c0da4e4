import request from 'supertest';

/** A browser-like client of the gateway: keeps the CSRF cookie and a bearer token, as the web client does. */
export class ApiClient {
  token: string | null = null;
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
      const res = await this.http.get('/api/v1/dev/sms/messages').expect(200);
      const message = (res.body.messages as { to: string; body: string }[]).find((m) => m.to === phone);
      return message?.body.match(/\b(\d{6})\b/)?.[1];
    });
  }

  /** Signs in by texted code, as the browser does (the callback's redirect carries the token). */
  async signInByPhone(phone: string, extraQuery = ''): Promise<string> {
    await this.fetchCsrf();
    await this.withCsrf(this.http.post('/api/v1/auth/login/phone_number')).send({ phone_number: phone }).expect(200);
    const code = await this.smsCodeFor(phone);
    const res = await this.http.get(`/api/v1/auth/callback/phone_number?phone_number=${encodeURIComponent(phone)}&code=${code}${extraQuery}`).expect(302);
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
