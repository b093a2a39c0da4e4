import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { API, COOKIE_PATHS } from '@app/contracts/gateway';
import * as cookies from './cookies';

type Action = (request: FastifyRequest, reply: FastifyReply) => void;

let app: FastifyInstance;
let action: Action;

beforeAll(async () => {
  // trustProxy: the scheme comes from X-Forwarded-Proto, as behind the ingress.
  app = Fastify({ trustProxy: true });
  await app.register(cookie);
  app.get('/act', (request, reply) => {
    action(request, reply);
    return reply.send({ binding: cookies.phoneLoginBindingOf(request) });
  });
  await app.ready();
});
afterAll(() => app.close());

async function setCookies(act: Action, headers: Record<string, string> = {}): Promise<string[]> {
  action = act;
  const response = await app.inject({ method: 'GET', url: '/act', headers });
  const set = response.headers['set-cookie'];
  return set === undefined ? [] : Array.isArray(set) ? set : [set];
}
const attributes = (line: string) => line.split('; ').slice(1).sort();
const https = { 'x-forwarded-proto': 'https' };

describe('the access token cookie (for images under the file view path)', () => {
  it('is HttpOnly, SameSite=Strict, scoped to the file view path, for 90 days; Secure over HTTPS', async () => {
    const [line] = await setCookies((request, reply) => cookies.setAccessTokenCookie(request, reply, 'tok'), https);
    expect(line.split('; ')[0]).toBe('access_token=tok');
    expect(attributes(line)).toEqual(['HttpOnly', 'Max-Age=7776000', 'Path=/api/v1/files/view', 'SameSite=Strict', 'Secure']);
  });

  it('is not Secure over plain HTTP (local development)', async () => {
    const [line] = await setCookies((request, reply) => cookies.setAccessTokenCookie(request, reply, 'tok'));
    expect(attributes(line)).not.toContain('Secure');
  });

  it('is cleared on the same path, so the browser drops that very cookie', async () => {
    const [line] = await setCookies((request, reply) => cookies.clearAccessTokenCookie(request, reply), https);
    expect(line).toMatch(/^access_token=; /);
    expect(attributes(line)).toEqual(expect.arrayContaining(['Path=/api/v1/files/view', 'HttpOnly', 'SameSite=Strict', 'Secure']));
    expect(line).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);
  });
});

describe('the CSRF cookie', () => {
  it('is HttpOnly, SameSite=Strict, sent only to the auth routes, for the browser session', async () => {
    const [line] = await setCookies((request, reply) => cookies.setCsrfCookie(request, reply, 'c5rf'), https);
    expect(line.split('; ')[0]).toBe('csrf_token=c5rf');
    expect(attributes(line)).toEqual(['HttpOnly', 'Path=/api/v1/auth', 'SameSite=Strict', 'Secure']);
  });
});

describe('the phone sign-in binding', () => {
  it('is a 43-character random nonce, different each time', () => {
    const nonces = new Set(Array.from({ length: 20 }, () => cookies.newPhoneLoginNonce()));
    expect(nonces.size).toBe(20);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('is set only for the code callback, for the lifetime asked', async () => {
    const [line] = await setCookies((request, reply) => cookies.setPhoneLoginCookie(request, reply, 'n'.repeat(43), 600), https);
    expect(attributes(line)).toEqual(['HttpOnly', 'Max-Age=600', 'Path=/api/v1/auth/callback', 'SameSite=Strict', 'Secure']);
    const [cleared] = await setCookies((request, reply) => cookies.clearPhoneLoginCookie(request, reply));
    expect(cleared).toMatch(/^phone_login=; /);
    expect(attributes(cleared)).toContain('Path=/api/v1/auth/callback');
  });

  it('reads back as the hash the auth service keeps, never the nonce', async () => {
    const nonce = cookies.newPhoneLoginNonce();
    action = () => undefined;
    const response = await app.inject({ method: 'GET', url: '/act', cookies: { phone_login: nonce } });
    const { binding } = response.json<{ binding: string }>();
    expect(binding).toBe(cookies.phoneLoginBindingHash(nonce));
    expect(binding).not.toContain(nonce);
    expect(cookies.phoneLoginBindingHash(nonce)).not.toBe(cookies.phoneLoginBindingHash(cookies.newPhoneLoginNonce()));
  });

  it('is null without the cookie, or with one too short, too long or with other characters', async () => {
    action = () => undefined;
    for (const value of [undefined, 'short', 'a'.repeat(31), 'a'.repeat(129), `${'a'.repeat(40)}.`, `${'a'.repeat(40)} `]) {
      const response = await app.inject({
        method: 'GET',
        url: '/act',
        ...(value === undefined ? {} : { cookies: { phone_login: value } }),
      });
      expect(response.json()).toEqual({ binding: null });
    }
    const longest = await app.inject({ method: 'GET', url: '/act', cookies: { phone_login: 'a'.repeat(128) } });
    expect(longest.json<{ binding: string | null }>().binding).not.toBeNull();
  });
});

describe('the cookie paths (libs/contracts)', () => {
  it('each reach the routes that read the cookie, and only routes of its area', () => {
    const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);
    expect(under(API.files.view.path, COOKIE_PATHS.fileView)).toBe(true);
    expect(under(API.auth.phoneCallback.path, COOKIE_PATHS.phoneLogin)).toBe(true);
    expect(under(API.auth.googleRedirect.path, COOKIE_PATHS.googleState)).toBe(true);
    expect(under(API.auth.googleCallback.path, COOKIE_PATHS.googleState)).toBe(true);
    for (const name of ['loginGoogle', 'loginApple', 'loginFirebase', 'sendPhoneCode', 'logout'] as const)
      expect(under(API.auth[name].path, COOKIE_PATHS.csrf)).toBe(true);
    expect(under(API.chat.list.path, COOKIE_PATHS.csrf)).toBe(false);
  });
});
