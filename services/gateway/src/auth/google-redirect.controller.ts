import { Controller, Inject, Query, Req, Res } from '@nestjs/common';
import { AUTH_RPC, LOGIN_STATE_PATTERN } from '@app/contracts/auth';
import { API, COOKIE_PATHS } from '@app/contracts/gateway';
import { DomainError, publicUrlFor, RpcCallError, RpcClient } from '@app/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import {
  Strategy as GoogleStrategy,
  type GoogleCallbackParameters,
  type Profile,
  type StrategyOptions,
  type VerifyCallback,
} from 'passport-google-oauth20';
import type { GatewayConfig } from '../config';
import { callerOf, clientOf } from '../http/request-context';
import { Route } from '../http/route';
import { GATEWAY_CONFIG } from '../tokens';
import { deliverLogin, loginSuccessUrl } from './auth.controller';

const STATE_COOKIE = 'google_oauth';
const STATE_PATH = COOKIE_PATHS.googleState;
const CALLBACK_PATH = API.auth.googleCallback.path;

type StrategyResult = { kind: 'redirect'; url: string } | { kind: 'success'; idToken: string } | { kind: 'fail'; reason: string };

/**
 * The classic redirect flow, for browsers where the Google popup is not available: passport's
 * Google strategy sends the browser to Google and exchanges the returned code; the ID token is then
 * verified by the auth service as for the popup flow. The `state` lives in a short cookie, with the
 * page's `login_state` nonce, echoed in the `/login-success` fragment (see loginSuccessUrl).
 */
@Controller()
export class GoogleRedirectController {
  private readonly strategy?: GoogleStrategy;

  constructor(
    private readonly rpc: RpcClient,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    if (config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET) {
      this.strategy = new GoogleStrategy(
        {
          clientID: config.GOOGLE_CLIENT_ID,
          clientSecret: config.GOOGLE_CLIENT_SECRET,
          callbackURL: publicUrlFor(config.PUBLIC_URL, CALLBACK_PATH) ?? CALLBACK_PATH,
          authorizationURL: config.GOOGLE_AUTHORIZATION_URL,
          tokenURL: config.GOOGLE_TOKEN_URL,
          proxy: config.TRUST_PROXY,
          // The profile call is not needed: the ID token says who signed in, and the auth service checks it.
          skipUserProfile: true,
        } as StrategyOptions,
        (_access: string, _refresh: string, params: GoogleCallbackParameters, _profile: Profile, done: VerifyCallback) =>
          done(null, { idToken: params.id_token }),
      );
    }
  }

  @Route(API.auth.googleRedirect)
  async start(
    @Query('invite_link_id') invite: unknown,
    @Query('campaign_name') campaign: unknown,
    @Query('login_state') loginState: unknown,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    const strategy = this.require();
    if (loginState !== undefined && (typeof loginState !== 'string' || !LOGIN_STATE_PATTERN.test(loginState))) {
      return reply.redirect(loginError('Google sign-in could not start. Reload the page and try again.'), 302);
    }
    const state = randomBytes(18).toString('base64url');
    const saved: SavedState = { state, invite: text(invite), campaign: text(campaign), loginState: loginState ?? null };
    reply.setCookie(STATE_COOKIE, JSON.stringify(saved), {
      path: STATE_PATH,
      maxAge: 600,
      httpOnly: true,
      sameSite: 'lax', // it must come back with Google's redirect
      secure: request.protocol === 'https',
    });
    const result = await run(strategy, request, { scope: ['openid', 'email', 'profile'], state, session: false, prompt: 'select_account' });
    if (result.kind !== 'redirect') return reply.redirect(loginError('Google sign-in could not start.'), 302);
    return reply.redirect(result.url, 302);
  }

  @Route(API.auth.googleCallback)
  async callback(@Query('state') state: string | undefined, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const strategy = this.require();
    reply.header('cache-control', 'no-store');
    reply.clearCookie(STATE_COOKIE, { path: STATE_PATH });
    const saved = parseState(request.cookies?.[STATE_COOKIE]);
    if (!saved || !state || !sameText(saved.state, state))
      return reply.redirect(loginError('The Google sign-in expired. Please try again.'), 302);
    const result = await run(strategy, request, { session: false });
    if (result.kind !== 'success') return reply.redirect(loginError('Google sign-in was cancelled or refused.'), 302);
    try {
      const outcome = await this.rpc.call(
        AUTH_RPC.loginGoogle,
        { id_token: result.idToken, invite_link_id: saved.invite, campaign_name: saved.campaign, client: clientOf(request) },
        callerOf(request),
      );
      if (!outcome.token) return reply.redirect(outcome.redirect_url ?? '/login-invite-error', 302);
      deliverLogin(request, reply, outcome);
      return reply.redirect(loginSuccessUrl(outcome.token, saved.loginState), 302);
    } catch (error) {
      if (error instanceof RpcCallError && error.shape.status < 500) return reply.redirect(loginError(error.shape.detail), 302);
      throw error;
    }
  }

  private require(): GoogleStrategy {
    if (!this.strategy) throw DomainError.notFound('Google sign-in is not configured.');
    return this.strategy;
  }
}

const loginError = (detail: string) => `/login?error=${encodeURIComponent(detail)}`;

interface SavedState {
  state: string;
  invite: string | null;
  campaign: string | null;
  loginState: string | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value.slice(0, 64) : null);

function parseState(raw: string | undefined): SavedState | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as { state?: unknown; invite?: unknown; campaign?: unknown; loginState?: unknown };
    if (typeof value.state !== 'string') return null;
    const loginState = typeof value.loginState === 'string' && LOGIN_STATE_PATTERN.test(value.loginState) ? value.loginState : null;
    return { state: value.state, invite: text(value.invite), campaign: text(value.campaign), loginState };
  } catch {
    return null;
  }
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Runs a passport strategy once on the raw request, the way passport.authenticate does, without Express. */
function run(strategy: GoogleStrategy, request: FastifyRequest, options: Record<string, unknown>): Promise<StrategyResult> {
  const raw = request.raw as IncomingMessage & { query?: unknown };
  raw.query = request.query;
  return new Promise((resolve) => {
    const attempt = Object.create(strategy) as GoogleStrategy & Record<string, (...args: unknown[]) => void>;
    attempt.redirect = (url) => resolve({ kind: 'redirect', url: String(url) });
    attempt.success = (user) => {
      const idToken = (user as { idToken?: unknown }).idToken;
      resolve(typeof idToken === 'string' ? { kind: 'success', idToken } : { kind: 'fail', reason: 'no id_token' });
    };
    attempt.fail = (info) => resolve({ kind: 'fail', reason: String((info as { message?: string })?.message ?? info) });
    attempt.error = (error) => resolve({ kind: 'fail', reason: String(error) });
    attempt.pass = () => resolve({ kind: 'fail', reason: 'pass' });
    attempt.authenticate(raw as never, options);
  });
}
