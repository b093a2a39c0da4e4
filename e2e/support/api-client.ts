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
