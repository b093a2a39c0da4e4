import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { HEADERS, PRODUCT_CONSTANTS } from '@app/contracts';
import { DomainError } from '@app/platform';
import type { FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { CSRF_PROTECTED, PUBLIC_ROUTE } from './auth.decorators';
import { ACCESS_TOKEN_COOKIE, CSRF_COOKIE } from './cookies';
import { InvalidTokenError, TokenVerifier, type Authenticated } from './token-verifier';

declare module 'fastify' {
  interface FastifyRequest {
    auth?: Authenticated;
  }
}

export const NOT_AUTHENTICATED = 'Not authenticated';
export const SESSION_ENDED = 'Your session has ended. Please sign in again.';
export const CSRF_REFUSED = 'Missing or invalid CSRF token. Reload the page and try again.';

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || undefined;
  // Images in a page cannot send headers: the file view path also takes the token cookie.
  if (request.url.startsWith(`${PRODUCT_CONSTANTS.fileViewCookiePath}/`)) return request.cookies?.[ACCESS_TOKEN_COOKIE];
  return undefined;
}

/** A request another site started (Fetch Metadata); absent in old browsers and non-browser clients. */
export function fromAnotherSite(request: Pick<FastifyRequest, 'headers'>): boolean {
  const site = request.headers['sec-fetch-site'];
  return site === 'cross-site' || site === 'same-site';
}

function sameToken(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Every route needs a valid access token unless it is @Public(); routes marked @RequireCsrf()
 * also need the CSRF header to match the CSRF cookie (HttpOnly, SameSite=Strict), and must not come
 * from another site. The header is what stops a forged request: another origin cannot set it
 * without a CORS preflight, which the gateway never grants; the cookie pairing and Fetch Metadata
 * are depth. (Binding the token to a session would add nothing here: the calls it guards are the
 * sign-ins themselves, made before there is a session to bind to.)
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly verifier: TokenVerifier,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const targets = [context.getHandler(), context.getClass()];
    const isPublic = this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets) ?? false;
    if (this.reflector.getAllAndOverride<boolean>(CSRF_PROTECTED, targets)) {
      const header = request.headers[HEADERS.csrfToken];
      if (fromAnotherSite(request) || !sameToken(Array.isArray(header) ? header[0] : header, request.cookies?.[CSRF_COOKIE])) {
        throw DomainError.forbidden(CSRF_REFUSED);
      }
    }
    const token = bearer(request);
    if (!token) {
      if (isPublic) return true;
      throw DomainError.unauthorized(NOT_AUTHENTICATED);
    }
    try {
      request.auth = await this.verifier.verify(token);
    } catch (error) {
      if (!(error instanceof InvalidTokenError)) throw error;
      // On a public route a stale token just means "nobody in particular".
      if (isPublic) return true;
      throw DomainError.unauthorized(SESSION_ENDED);
    }
    return true;
  }
}
