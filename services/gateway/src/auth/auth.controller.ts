import { Body, Controller, Get, Header, HttpCode, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { HEADERS } from '@app/contracts';
import {
  AppleLoginBodySchema,
  AUTH_RPC,
  FirebaseLoginBodySchema,
  GoogleLoginBodySchema,
  PhoneCallbackQuerySchema,
  PhoneLoginBodySchema,
  type LoginOutcome,
  type LoginResult,
} from '@app/contracts/auth';
import { DomainError, KEY_VALUE_STORE, RpcCallError, RpcClient, type KeyValueStore } from '@app/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { ZodPipe } from '../http/zod-validation';
import { callerOf, clientOf } from '../http/request-context';
import { Public, RequireCsrf } from './auth.decorators';
import { clearAccessTokenCookie, setAccessTokenCookie, setCsrfCookie } from './cookies';

const GUESTS_PER_IP_PER_HOUR = 60;

/** Hands a login to the browser: the answer, the session header and the file-view cookie. */
export function deliverLogin(request: FastifyRequest, reply: FastifyReply, outcome: LoginOutcome): LoginResult {
  if (outcome.token) setAccessTokenCookie(request, reply, outcome.token);
  if (outcome.session_id) reply.header(HEADERS.userSessionId, outcome.session_id);
  return { token: outcome.token, error: outcome.error, redirect_url: outcome.redirect_url };
}

@Controller('api/v1/auth')
export class AuthController {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(KEY_VALUE_STORE) private readonly kv: KeyValueStore,
  ) {}

  @Post('anon')
  @Public()
  @HttpCode(200)
  async anon(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<LoginResult> {
    const window = Math.floor(Date.now() / 3_600_000);
    if ((await this.kv.increment(`auth:guests:ip:${request.ip}:${window}`, 3600)) > GUESTS_PER_IP_PER_HOUR) {
      throw new DomainError('rate_limited', 'Too many new guests from your network. Try again later.');
    }
    const outcome = await this.rpc.call(AUTH_RPC.createGuest, { client: clientOf(request) }, callerOf(request));
    return deliverLogin(request, reply, outcome);
  }

  @Get('csrf-token')
  @Public()
  @Header('cache-control', 'no-store')
  csrf(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const token = randomBytes(24).toString('base64url');
    setCsrfCookie(request, reply, token);
    reply.header(HEADERS.csrfToken, token);
    return { csrf_token: token };
  }

  @Post('login/phone_number')
  @Public()
  @RequireCsrf()
  @HttpCode(200)
  sendPhoneCode(@Body(new ZodPipe(PhoneLoginBodySchema)) body: ReturnType<typeof PhoneLoginBodySchema.parse>, @Req() request: FastifyRequest) {
    return this.rpc.call(AUTH_RPC.sendPhoneCode, { ...body, client: clientOf(request) }, callerOf(request));
  }

  /**
   * A full page navigation from the texted link or the code form. The token travels to the page in
   * the URL fragment, which is never sent to a server (so never logged, never in a Referer).
   */
  @Get('callback/phone_number')
  @Public()
  async phoneCallback(@Query() query: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    reply.header('cache-control', 'no-store');
    const parsed = PhoneCallbackQuerySchema.safeParse(query);
    if (!parsed.success) return reply.redirect(`/login?error=${encodeURIComponent('The sign-in link is incomplete. Ask for a new code.')}`, 302);
    try {
      const outcome = await this.rpc.call(AUTH_RPC.verifyPhoneCode, { ...parsed.data, client: clientOf(request) }, callerOf(request));
      if (!outcome.token) return reply.redirect(outcome.redirect_url ?? '/login-invite-error', 302);
      deliverLogin(request, reply, outcome);
      return reply.redirect(`/login-success#access_token=${encodeURIComponent(outcome.token)}`, 302);
    } catch (error) {
      if (!(error instanceof RpcCallError) || error.shape.status >= 500) throw error;
      if (error.shape.status === 451) return reply.redirect('/404', 302);
      return reply.redirect(`/login?error=${encodeURIComponent(error.shape.detail)}`, 302);
    }
  }

  @Get('google/config')
  @Public()
  async googleConfig() {
    return (await this.providers()).google ?? notConfigured('Google');
  }

  @Get('apple/config')
  @Public()
  async appleConfig() {
    return (await this.providers()).apple ?? notConfigured('Apple');
  }

  @Get('firebase/config')
  @Public()
  async firebaseConfig() {
    return (await this.providers()).firebase ?? notConfigured('Firebase');
  }

  @Post('login/google')
  @Public()
  @RequireCsrf()
  @HttpCode(200)
  async google(@Body(new ZodPipe(GoogleLoginBodySchema)) body: ReturnType<typeof GoogleLoginBodySchema.parse>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const outcome = await this.rpc.call(AUTH_RPC.loginGoogle, { ...body, redirect_uri: 'postmessage', client: clientOf(request) }, callerOf(request));
    return deliverLogin(request, reply, outcome);
  }

  @Post('login/apple')
  @Public()
  @RequireCsrf()
  @HttpCode(200)
  async apple(@Body(new ZodPipe(AppleLoginBodySchema)) body: ReturnType<typeof AppleLoginBodySchema.parse>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const outcome = await this.rpc.call(AUTH_RPC.loginApple, { ...body, client: clientOf(request) }, callerOf(request));
    return deliverLogin(request, reply, outcome);
  }

  @Post('login/firebase')
  @Public()
  @RequireCsrf()
  @HttpCode(200)
  async firebase(@Body(new ZodPipe(FirebaseLoginBodySchema)) body: ReturnType<typeof FirebaseLoginBodySchema.parse>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const outcome = await this.rpc.call(AUTH_RPC.loginFirebase, { ...body, client: clientOf(request) }, callerOf(request));
    return deliverLogin(request, reply, outcome);
  }

  @Get('me')
  me(@Req() request: FastifyRequest) {
    return this.rpc.call(AUTH_RPC.me, {}, callerOf(request));
  }

  @Get('session-id')
  sessionId(@Req() request: FastifyRequest) {
    return { session_id: request.auth!.session_id };
  }

  @Post('logout')
  @Public()
  @RequireCsrf()
  @HttpCode(200)
  async logout(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    clearAccessTokenCookie(request, reply);
    if (!request.auth) return { logged_out: true as const };
    return this.rpc.call(AUTH_RPC.logout, {}, callerOf(request));
  }

  private providers() {
    return this.rpc.call(AUTH_RPC.providers, {}, { user_id: null, is_anon: false, session_id: null, request_id: 'providers' });
  }
}

function notConfigured(provider: string): never {
  throw DomainError.notFound(`${provider} sign-in is not configured.`);
}
