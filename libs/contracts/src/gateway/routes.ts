import { z } from 'zod';

import {
  AccountDeletionSchema,
  AppleConfigSchema,
  AppleLoginBodySchema,
  CampaignSchema,
  CreateInviteBodySchema,
  FirebaseConfigSchema,
  FirebaseLoginBodySchema,
  GoogleConfigSchema,
  GoogleLoginBodySchema,
  InviteSchema,
  LoginResultSchema,
  LogoutResponseSchema,
  OnboardingAgeBodySchema,
  OnboardingProfileBodySchema,
  PhoneCallbackQuerySchema,
  PhoneCodeSentSchema,
  PhoneLoginBodySchema,
  SessionIdResponseSchema,
  UserSchema,
} from '../auth/index';
import { SmsMessageSchema } from '../sms/index';
import { LivenessResponseSchema, ReadinessResponseSchema, VersionResponseSchema } from './schemas';

const auth = (route: Omit<HttpRoute, 'tag'>): HttpRoute => ({ tag: 'auth', ...route });

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One HTTP route of the gateway, as documented in the OpenAPI description. */
export interface HttpRoute {
  readonly method: HttpMethod;
  /** Fastify-style path (`/api/v1/chats/:chat_id`). */
  readonly path: string;
  readonly summary: string;
  readonly tag: string;
  readonly auth: 'none' | 'bearer';
  readonly params?: z.ZodObject;
  readonly query?: z.ZodObject;
  readonly body?: z.ZodType;
  /** Success answers by status; `null` for an empty body. */
  readonly responses: Readonly<Record<number, z.ZodType | null>>;
  /** Content type of the success answer when it is not JSON. */
  readonly produces?: string;
}

/** Every route the gateway serves. Capabilities append theirs; a test checks the gateway serves exactly these. */
export const HTTP_ROUTES: readonly HttpRoute[] = [
  {
    method: 'GET',
    path: '/healthz',
    summary: 'Liveness: the process answers',
    tag: 'operations',
    auth: 'none',
    responses: { 200: LivenessResponseSchema },
  },
  {
    method: 'GET',
    path: '/readyz',
    summary: 'Readiness: every service and dependency answers',
    tag: 'operations',
    auth: 'none',
    responses: { 200: ReadinessResponseSchema, 503: ReadinessResponseSchema },
  },
  {
    method: 'GET',
    path: '/api/v1/version/commit',
    summary: 'The commit of the running build (never cached)',
    tag: 'version',
    auth: 'none',
    responses: { 200: VersionResponseSchema },
  },
  auth({ method: 'POST', path: '/api/v1/auth/anon', summary: 'Create a guest and sign in as them', auth: 'none', responses: { 200: LoginResultSchema } }),
  auth({ method: 'GET', path: '/api/v1/auth/csrf-token', summary: 'A CSRF token (also in the X-CSRF-Token header and a cookie)', auth: 'none', responses: { 200: z.object({ csrf_token: z.string() }) } }),
  auth({ method: 'POST', path: '/api/v1/auth/login/phone_number', summary: 'Text a 6-digit sign-in code (needs X-CSRF-Token)', auth: 'none', body: PhoneLoginBodySchema, responses: { 200: PhoneCodeSentSchema } }),
  auth({ method: 'GET', path: '/api/v1/auth/callback/phone_number', summary: 'Sign in with a texted code (a page navigation: redirects to /login-success)', auth: 'none', query: PhoneCallbackQuerySchema, responses: { 302: null } }),
  auth({ method: 'GET', path: '/api/v1/auth/google/config', summary: 'Google sign-in configuration (404 when off)', auth: 'none', responses: { 200: GoogleConfigSchema } }),
  auth({ method: 'GET', path: '/api/v1/auth/apple/config', summary: 'Sign in with Apple configuration (404 when off)', auth: 'none', responses: { 200: AppleConfigSchema } }),
  auth({ method: 'GET', path: '/api/v1/auth/firebase/config', summary: 'Firebase sign-in configuration (404 when off)', auth: 'none', responses: { 200: FirebaseConfigSchema } }),
  auth({ method: 'GET', path: '/api/v1/auth/google/redirect', summary: 'Start the Google redirect flow (a page navigation)', auth: 'none', query: z.object({ invite_link_id: z.string().optional(), campaign_name: z.string().optional() }), responses: { 302: null } }),
  auth({ method: 'GET', path: '/api/v1/auth/google/callback', summary: "Google's redirect back (signs the browser in, redirects to /login-success)", auth: 'none', responses: { 302: null } }),
  auth({ method: 'POST', path: '/api/v1/auth/login/google', summary: 'Sign in with a Google authorization code (needs X-CSRF-Token)', auth: 'none', body: GoogleLoginBodySchema, responses: { 200: LoginResultSchema } }),
  auth({ method: 'POST', path: '/api/v1/auth/login/apple', summary: 'Sign in with Apple (needs X-CSRF-Token)', auth: 'none', body: AppleLoginBodySchema, responses: { 200: LoginResultSchema } }),
  auth({ method: 'POST', path: '/api/v1/auth/login/firebase', summary: 'Sign in with a Firebase ID token (needs X-CSRF-Token)', auth: 'none', body: FirebaseLoginBodySchema, responses: { 200: LoginResultSchema } }),
  auth({ method: 'GET', path: '/api/v1/auth/me', summary: 'The signed-in user', auth: 'bearer', responses: { 200: UserSchema } }),
  auth({ method: 'GET', path: '/api/v1/auth/session-id', summary: 'The current session id', auth: 'bearer', responses: { 200: SessionIdResponseSchema } }),
  auth({ method: 'POST', path: '/api/v1/auth/logout', summary: 'End the session everywhere (needs X-CSRF-Token)', auth: 'none', responses: { 200: LogoutResponseSchema } }),
  { method: 'POST', path: '/api/v1/onboarding/age', summary: 'Confirm the age of majority (18)', tag: 'onboarding', auth: 'bearer', body: OnboardingAgeBodySchema, responses: { 200: UserSchema } },
  { method: 'POST', path: '/api/v1/onboarding/profile', summary: 'Set the name', tag: 'onboarding', auth: 'bearer', body: OnboardingProfileBodySchema, responses: { 200: UserSchema } },
  { method: 'POST', path: '/api/v1/onboarding/done', summary: 'Finish onboarding', tag: 'onboarding', auth: 'bearer', responses: { 200: UserSchema } },
  { method: 'GET', path: '/api/v1/users/me/export', summary: 'Everything held about the caller, as a zip', tag: 'account', auth: 'bearer', produces: 'application/zip', responses: { 200: z.string() } },
  { method: 'DELETE', path: '/api/v1/users/me', summary: 'Delete the account and all its data (204 done, 202 still finishing)', tag: 'account', auth: 'bearer', responses: { 204: null, 202: AccountDeletionSchema.pick({}) } },
  { method: 'POST', path: '/api/v1/invites', summary: 'Create an invite link (needs can_create_invite)', tag: 'account', auth: 'bearer', body: CreateInviteBodySchema, responses: { 201: InviteSchema } },
  { method: 'GET', path: '/api/v1/campaigns/:campaign_name', summary: 'A campaign page', tag: 'account', auth: 'none', params: z.object({ campaign_name: z.string() }), responses: { 200: CampaignSchema } },
  { method: 'GET', path: '/api/v1/dev/sms', summary: 'Development SMS inbox page (console sink only, never in production)', tag: 'development', auth: 'none', produces: 'text/html', responses: { 200: z.string() } },
  { method: 'GET', path: '/api/v1/dev/sms/messages', summary: 'Development SMS inbox as JSON', tag: 'development', auth: 'none', responses: { 200: z.object({ enabled: z.boolean(), messages: z.array(SmsMessageSchema) }) } },
];

