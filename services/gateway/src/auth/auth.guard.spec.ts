import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError, Public, RequireCsrf } from '@app/platform';
import type { FastifyRequest } from 'fastify';
import { AuthGuard, CSRF_REFUSED, fromAnotherSite, NOT_AUTHENTICATED, SESSION_ENDED } from './auth.guard';
import { InvalidTokenError, type Authenticated, type TokenVerifier } from './token-verifier';

const ADA: Authenticated = {
  user_id: '00000000-0000-4000-8000-0000000000ad',
  session_id: '00000000-0000-4000-8000-0000000000a1',
  is_anon: false,
};

/** Tokens this fake knows: `good` is Ada's, `stale` names an ended session, `broken` makes the cache fail. */
class FakeVerifier {
  readonly seen: string[] = [];
  async verify(token: string): Promise<Authenticated> {
    this.seen.push(token);
    if (token === 'good') return ADA;
    if (token === 'broken') throw new DomainError('unavailable', 'Sign-in is unavailable right now.', 503);
    throw new InvalidTokenError('stale');
  }
}

class Routes {
  protected() {}
  @Public() open() {}
  @RequireCsrf() @Public() signIn() {}
  @RequireCsrf() signedInWithCsrf() {}
}

@Public()
class PublicController {
  anything() {}
}

interface Sent {
  headers?: Record<string, string | string[] | undefined>;
  cookies?: Record<string, string | undefined>;
  url?: string;
}

function contextFor(handler: keyof Routes | 'public-class', sent: Sent): { context: ExecutionContext; request: FastifyRequest } {
  const request = {
    headers: sent.headers ?? {},
    cookies: sent.cookies ?? {},
    url: sent.url ?? '/api/v1/chats',
  } as unknown as FastifyRequest;
  const [target, cls] =
    handler === 'public-class' ? [PublicController.prototype.anything, PublicController] : [Routes.prototype[handler], Routes];
  const context = {
    switchToHttp: () => ({ getRequest: () => request }),
    getHandler: () => target,
    getClass: () => cls,
  } as unknown as ExecutionContext;
  return { context, request };
}

let verifier: FakeVerifier;
let guard: AuthGuard;

beforeEach(() => {
  verifier = new FakeVerifier();
  guard = new AuthGuard(new Reflector(), verifier as unknown as TokenVerifier);
});

async function outcome(
  handler: keyof Routes | 'public-class',
  sent: Sent,
): Promise<{ allowed: true; auth?: Authenticated } | { status: number; detail: string }> {
  const { context, request } = contextFor(handler, sent);
  try {
    await guard.canActivate(context);
    return { allowed: true, ...(request.auth ? { auth: request.auth } : {}) };
  } catch (error) {
    if (error instanceof DomainError) return { status: error.status, detail: error.detail };
    throw error;
  }
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('AuthGuard: tokens', () => {
  it('lets a valid bearer token through and names the caller', async () => {
    expect(await outcome('protected', { headers: bearer('good') })).toEqual({ allowed: true, auth: ADA });
  });

  it('answers 401 "Not authenticated" without a token, with an empty one or another scheme', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer ' },
      { authorization: 'Bearer    ' },
      { authorization: 'Basic Z29vZA==' },
      { authorization: 'good' },
    ]) {
      expect(await outcome('protected', { headers })).toEqual({ status: 401, detail: NOT_AUTHENTICATED });
    }
    expect(verifier.seen).toEqual([]);
  });

  it('answers 401 "session has ended" for a stale token on a protected route', async () => {
    expect(await outcome('protected', { headers: bearer('stale') })).toEqual({ status: 401, detail: SESSION_ENDED });
  });

  it('on a public route: no token, or a stale one, is nobody in particular; a valid one still names the caller', async () => {
    expect(await outcome('open', {})).toEqual({ allowed: true });
    expect(await outcome('open', { headers: bearer('stale') })).toEqual({ allowed: true });
    expect(await outcome('open', { headers: bearer('good') })).toEqual({ allowed: true, auth: ADA });
    expect(await outcome('public-class', { headers: bearer('stale') })).toEqual({ allowed: true });
  });

  it('lets a failure to check the token through as it is (503), even on a public route', async () => {
    for (const handler of ['protected', 'open'] as const) {
      expect(await outcome(handler, { headers: bearer('broken') })).toEqual({ status: 503, detail: 'Sign-in is unavailable right now.' });
    }
  });

  it('takes the token cookie only under the file view path, and a header first', async () => {
    const cookies = { access_token: 'good' };
    expect(await outcome('protected', { cookies, url: '/api/v1/files/view/f-1' })).toEqual({ allowed: true, auth: ADA });
    expect(await outcome('protected', { cookies, url: '/api/v1/chats' })).toEqual({ status: 401, detail: NOT_AUTHENTICATED });
    expect(await outcome('protected', { cookies, url: '/api/v1/files/viewer' })).toEqual({ status: 401, detail: NOT_AUTHENTICATED });
    expect(await outcome('protected', { cookies, url: '/api/v1/files/view' })).toEqual({ status: 401, detail: NOT_AUTHENTICATED });
    expect(
      await outcome('protected', { cookies: { access_token: 'stale' }, headers: bearer('good'), url: '/api/v1/files/view/f-1' }),
    ).toEqual({ allowed: true, auth: ADA });
  });
});

describe('AuthGuard: CSRF on routes that act on cookies', () => {
  const csrf = (header: string | string[] | undefined, cookie: string | undefined, site?: string) => ({
    headers: { ...(header !== undefined ? { 'x-csrf-token': header } : {}), ...(site ? { 'sec-fetch-site': site } : {}) },
    cookies: cookie !== undefined ? { csrf_token: cookie } : {},
  });
  const refused = { status: 403, detail: CSRF_REFUSED };

  it('passes when the header matches the cookie, from this site or without Fetch Metadata', async () => {
    expect(await outcome('signIn', csrf('t0k3n', 't0k3n'))).toEqual({ allowed: true });
    expect(await outcome('signIn', csrf('t0k3n', 't0k3n', 'same-origin'))).toEqual({ allowed: true });
    expect(await outcome('signIn', csrf('t0k3n', 't0k3n', 'none'))).toEqual({ allowed: true });
    expect(await outcome('signIn', csrf(['t0k3n', 'other'], 't0k3n'))).toEqual({ allowed: true });
  });

  it('refuses a missing, empty or different header or cookie (403), before looking at any token', async () => {
    for (const [header, cookie] of [
      [undefined, 't'],
      ['t', undefined],
      ['', ''],
      ['t', 'T'],
      ['t', 't '],
      ['tt', 't'],
      [['x', 't'], 't'],
    ] as const) {
      expect(await outcome('signIn', csrf(header as string | string[] | undefined, cookie))).toEqual(refused);
    }
    expect(await outcome('signedInWithCsrf', { ...csrf('a', 'b'), headers: { ...csrf('a', 'b').headers, ...bearer('good') } })).toEqual(
      refused,
    );
    expect(verifier.seen).toEqual([]);
  });

  it('refuses a matching pair sent from another site, or from a sibling subdomain', async () => {
    expect(await outcome('signIn', csrf('t', 't', 'cross-site'))).toEqual(refused);
    expect(await outcome('signIn', csrf('t', 't', 'same-site'))).toEqual(refused);
  });

  it('still needs the token on a protected route after the CSRF check', async () => {
    expect(await outcome('signedInWithCsrf', csrf('t', 't'))).toEqual({ status: 401, detail: NOT_AUTHENTICATED });
  });

  it('does not ask for CSRF on other routes', async () => {
    expect(await outcome('protected', { headers: { ...bearer('good'), 'sec-fetch-site': 'cross-site' } })).toEqual({
      allowed: true,
      auth: ADA,
    });
  });
});

describe('fromAnotherSite', () => {
  it.each([
    ['cross-site', true],
    ['same-site', true],
    ['same-origin', false],
    ['none', false],
    [undefined, false],
  ])('%s → %s', (site, expected) => {
    expect(fromAnotherSite({ headers: site ? { 'sec-fetch-site': site } : {} } as unknown as FastifyRequest)).toBe(expected);
  });
});
