import { PRODUCT_CONSTANTS } from '@app/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const ACCESS_TOKEN_COOKIE = 'access_token';
export const CSRF_COOKIE = 'csrf_token';
const CSRF_COOKIE_PATH = '/api/v1/auth';

const secure = (request: FastifyRequest) => request.protocol === 'https';

/** The access token, readable only by `GET /api/v1/files/view/...` (images in the page). */
export function setAccessTokenCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(ACCESS_TOKEN_COOKIE, token, {
    path: PRODUCT_CONSTANTS.fileViewCookiePath,
    maxAge: PRODUCT_CONSTANTS.fileViewCookieMaxAgeSeconds,
    sameSite: 'strict',
    httpOnly: true,
    secure: secure(request),
  });
}

export function clearAccessTokenCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(ACCESS_TOKEN_COOKIE, { path: PRODUCT_CONSTANTS.fileViewCookiePath, sameSite: 'strict', httpOnly: true, secure: secure(request) });
}

export function setCsrfCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(CSRF_COOKIE, token, { path: CSRF_COOKIE_PATH, sameSite: 'strict', httpOnly: true, secure: secure(request) });
}
