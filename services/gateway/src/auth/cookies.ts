import { PRODUCT_CONSTANTS } from '@app/contracts';
import { COOKIE_PATHS } from '@app/contracts/gateway';
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const ACCESS_TOKEN_COOKIE = 'access_token';
export const CSRF_COOKIE = 'csrf_token';

const secure = (request: FastifyRequest) => request.protocol === 'https';

/** The access token, readable only by `GET /api/v1/files/view/...` (images in the page). */
export function setAccessTokenCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(ACCESS_TOKEN_COOKIE, token, {
    path: COOKIE_PATHS.fileView,
    maxAge: PRODUCT_CONSTANTS.fileViewCookieMaxAgeSeconds,
    sameSite: 'strict',
    httpOnly: true,
    secure: secure(request),
  });
}

export function clearAccessTokenCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(ACCESS_TOKEN_COOKIE, {
    path: COOKIE_PATHS.fileView,
    sameSite: 'strict',
    httpOnly: true,
    secure: secure(request),
  });
}

export function setCsrfCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(CSRF_COOKIE, token, { path: COOKIE_PATHS.csrf, sameSite: 'strict', httpOnly: true, secure: secure(request) });
}

/**
 * The phone sign-in's binding: a random nonce set when a code is requested, sent back only to the
 * code callback, only by this site's own pages (SameSite=Strict). The auth service keeps just its
 * hash with the code, so only the browser that asked for a code can complete it.
 */
export const PHONE_LOGIN_COOKIE = 'phone_login';
const NONCE = /^[A-Za-z0-9_-]{32,128}$/;

export function newPhoneLoginNonce(): string {
  return randomBytes(32).toString('base64url');
}

/** The hash the auth service stores and compares (never the nonce itself). */
export function phoneLoginBindingHash(nonce: string): string {
  return createHash('sha256').update(`phone-login:${nonce}`).digest('base64url');
}

/** The hash of the request's `phone_login` cookie, or null when it has none (or a malformed one). */
export function phoneLoginBindingOf(request: FastifyRequest): string | null {
  const nonce = request.cookies?.[PHONE_LOGIN_COOKIE];
  return nonce && NONCE.test(nonce) ? phoneLoginBindingHash(nonce) : null;
}

export function setPhoneLoginCookie(request: FastifyRequest, reply: FastifyReply, nonce: string, maxAgeSeconds: number): void {
  reply.setCookie(PHONE_LOGIN_COOKIE, nonce, {
    path: COOKIE_PATHS.phoneLogin,
    maxAge: maxAgeSeconds,
    sameSite: 'strict',
    httpOnly: true,
    secure: secure(request),
  });
}

export function clearPhoneLoginCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(PHONE_LOGIN_COOKIE, { path: COOKIE_PATHS.phoneLogin, sameSite: 'strict', httpOnly: true, secure: secure(request) });
}
