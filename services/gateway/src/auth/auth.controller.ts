import { Controller, Header, Inject, Query, Req, Res } from '@nestjs/common';
import { HEADERS } from '@app/contracts';
import { AUTH_RPC, PhoneCallbackQuerySchema, type LoginOutcome, type LoginResult } from '@app/contracts/auth';
import { API } from '@app/contracts/gateway';
import { DomainError, RpcCallError, RpcClient, Throttler, type ThrottleLimit } from '@app/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { GatewayConfig } from '../config';
import { callerOf, clientOf } from '../http/request-context';
import { Route, ValidBody, type BodyOf } from '../http/route';
import { GATEWAY_CONFIG } from '../tokens';
import { fromAnotherSite } from './auth.guard';
import {
  clearAccessTokenCookie,
  clearPhoneLoginCookie,
  newPhoneLoginNonce,
  phoneLoginBindingHash,
  phoneLoginBindingOf,
  setAccessTokenCookie,
  setCsrfCookie,
  setPhoneLoginCookie,
} from './cookies';

/** Texts of the sign-in page's refusals that the gateway itself decides. */
export const CALLBACK_TEXT = {
  incomplete: 'The sign-in link is incomplete. Ask for a new code.',
  crossSite: 'This sign-in link was opened from another site. Enter your code on this page instead.',
  busy: 'The service is busy. Try the same code again in a moment.',
} as const;

/** Seconds a client is asked to wait after a 503 (a busy service). */
export const BUSY_RETRY_AFTER_SECONDS = 2;

/** Hands a login to the browser: the answer, the session header and the file-view cookie. */
export function deliverLogin(request: FastifyRequest, reply: FastifyReply, outcome: LoginOutcome): LoginResult {
  if (outcome.token) setAccessTokenCookie(request, reply, outcome.token);
  if (outcome.session_id) reply.header(HEADERS.userSessionId, outcome.session_id);
  return { token: outcome.token, error: outcome.error, redirect_url: outcome.redirect_url };
}

/**
 * Where a sign-in that left the page lands: the token in the fragment (never sent to a server), with
 * the page's own nonce when it gave one, so that the page accepts only a sign-in it started.
 */
export function loginSuccessUrl(token: string, loginState: string | null | undefined): string {
  return `/login-success#access_token=${encodeURIComponent(token)}${loginState ? `&login_state=${encodeURIComponent(loginState)}` : ''}`;
}

export const loginErrorUrl = (detail: string, step?: 'code') => `/login?${step ? `step=${step}&` : ''}error=${encodeURIComponent(detail)}`;

/** A 503 (a busy service) tells the client when to come back. */
function withRetryAfter(reply: FastifyReply, error: unknown): unknown {
  if (error instanceof RpcCallError && error.shape.status === 503) reply.header('retry-after', String(BUSY_RETRY_AFTER_SECONDS));
  return error;
}

/** Sign-in, the session and sign-out (the signed-in user, GET /auth/me, is a plain proxy). */
@Controller()
export class AuthController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly throttler: Throttler,
    @Inject(GATEWAY_CONFIG) config: Pick<GatewayConfig, 'GUESTS_PER_IP_PER_HOUR'>,
  ) {
    this.newGuests = {
      name: 'auth:guests:ip',
      limit: config.GUESTS_PER_IP_PER_HOUR,
      windowMs: 3_600_000,
      detail: 'Too many new guests from your network. Try again later.',
    };
  }

  /** New guests per network and clock hour (GUESTS_PER_IP_PER_HOUR). */
  private readonly newGuests: ThrottleLimit;

  @Route(API.auth.anon)
  async anon(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<LoginResult> {
    await this.throttler.take(this.newGuests, request.ip);
    const outcome = await this.rpc.call(AUTH_RPC.createGuest, { client: clientOf(request) }, callerOf(request));
    return deliverLogin(request, reply, outcome);
  }

  @Route(API.auth.csrfToken)
  @Header('cache-control', 'no-store')
  csrf(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const token = randomBytes(24).toString('base64url');
    setCsrfCookie(request, reply, token);
    reply.header(HEADERS.csrfToken, token);
    return { csrf_token: token };
  }

  @Route(API.auth.sendPhoneCode)
  async sendPhoneCode(
    @ValidBody() body: BodyOf<typeof API.auth.sendPhoneCode>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    // The code is bound to this browser: the auth service keeps the nonce's hash, the browser the nonce.
    const nonce = newPhoneLoginNonce();
    try {
      const sent = await this.rpc.call(
        AUTH_RPC.sendPhoneCode,
        { ...body, client: clientOf(request), binding_hash: phoneLoginBindingHash(nonce) },
        callerOf(request),
      );
      setPhoneLoginCookie(request, reply, nonce, sent.expires_in_seconds);
      return sent;
    } catch (error) {
      throw withRetryAfter(reply, error);
    }
  }

  /**
   * A full page navigation from the code form. It completes a sign-in only in the browser that asked
   * for the code (the `phone_login` cookie, which other sites' navigations do not carry), and never
   * for a navigation another site started. The token travels to the page in the URL fragment, which
   * is never sent to a server (so never logged, never in a Referer).
   */
  @Route(API.auth.phoneCallback)
  async phoneCallback(@Query() query: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    reply.header('cache-control', 'no-store');
    if (fromAnotherSite(request)) return reply.redirect(loginErrorUrl(CALLBACK_TEXT.crossSite), 302);
    const parsed = PhoneCallbackQuerySchema.safeParse(query);
    if (!parsed.success) return reply.redirect(loginErrorUrl(CALLBACK_TEXT.incomplete), 302);
    const { login_state: loginState, ...fields } = parsed.data;
    try {
      const outcome = await this.rpc.call(
        AUTH_RPC.verifyPhoneCode,
        { ...fields, client: clientOf(request), binding_hash: phoneLoginBindingOf(request) },
        callerOf(request),
      );
      if (!outcome.token) return reply.redirect(outcome.redirect_url ?? '/login-invite-error', 302);
      clearPhoneLoginCookie(request, reply);
      deliverLogin(request, reply, outcome);
      return reply.redirect(loginSuccessUrl(outcome.token, loginState), 302);
    } catch (error) {
      if (!(error instanceof RpcCallError)) throw error;
      // Busy or late: the code was not used, the same one can be tried again.
      if (error.shape.status === 503 || error.shape.status === 504) return reply.redirect(loginErrorUrl(CALLBACK_TEXT.busy, 'code'), 302);
      if (error.shape.status >= 500) throw error;
      if (error.shape.status === 451) return reply.redirect('/404', 302);
      return reply.redirect(loginErrorUrl(error.shape.detail), 302);
    }
  }

  @Route(API.auth.googleConfig)
  async googleConfig() {
    return (await this.providers()).google ?? notConfigured('Google');
  }

  @Route(API.auth.appleConfig)
  async appleConfig() {
    return (await this.providers()).apple ?? notConfigured('Apple');
  }

  @Route(API.auth.firebaseConfig)
  async firebaseConfig() {
    return (await this.providers()).firebase ?? notConfigured('Firebase');
  }

  @Route(API.auth.loginGoogle)
  async google(
    @ValidBody() body: BodyOf<typeof API.auth.loginGoogle>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const outcome = await this.rpc.call(
      AUTH_RPC.loginGoogle,
      { ...body, redirect_uri: 'postmessage', client: clientOf(request) },
      callerOf(request),
    );
    return deliverLogin(request, reply, outcome);
  }

  @Route(API.auth.loginApple)
  async apple(
    @ValidBody() body: BodyOf<typeof API.auth.loginApple>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const outcome = await this.rpc.call(AUTH_RPC.loginApple, { ...body, client: clientOf(request) }, callerOf(request));
    return deliverLogin(request, reply, outcome);
  }

  @Route(API.auth.loginFirebase)
  async firebase(
    @ValidBody() body: BodyOf<typeof API.auth.loginFirebase>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const outcome = await this.rpc.call(AUTH_RPC.loginFirebase, { ...body, client: clientOf(request) }, callerOf(request));
    return deliverLogin(request, reply, outcome);
  }

  @Route(API.auth.sessionId)
  sessionId(@Req() request: FastifyRequest) {
    return { session_id: request.auth!.session_id };
  }

  /** Ends this session; `{"all": true}` (or `?all=true`) ends every session of the account, on every device. */
  @Route(API.auth.logout)
  async logout(
    @ValidBody() body: BodyOf<typeof API.auth.logout>,
    @Query('all') allQuery: unknown,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    clearAccessTokenCookie(request, reply);
    if (!request.auth) return { logged_out: true as const };
    const all = body.all === true || allQuery === 'true' || allQuery === '1';
    return this.rpc.call(AUTH_RPC.logout, all ? { all } : {}, callerOf(request));
  }

  private providers() {
    return this.rpc.call(AUTH_RPC.providers, {}, { user_id: null, is_anon: false, session_id: null, request_id: 'providers' });
  }
}

function notConfigured(provider: string): never {
  throw DomainError.notFound(`${provider} sign-in is not configured.`);
}
