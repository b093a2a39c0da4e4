import { z } from 'zod';
import { defineRpc } from '../common/contract';
import { commonCalls } from '../common/service-calls';

// ---- What the web client receives -------------------------------------------------------------

export const OnboardingConfigSchema = z.object({ registered: z.boolean(), onboarding_done: z.boolean() });

/** The user as `GET /api/v1/auth/me` answers it (spec section 3). */
export const UserSchema = z.object({
  user_id: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  phone_number: z.string().nullable(),
  is_anon: z.boolean(),
  onboarding_config: OnboardingConfigSchema,
  campaign_name: z.string().nullable(),
  created_at: z.string(),
});
export type User = z.infer<typeof UserSchema>;

/** Every login answer: a token, or an error and where to send the browser (spec section 7). */
export const LoginResultSchema = z.object({
  token: z.string().nullable(),
  error: z.string().nullable(),
  redirect_url: z.string().nullable(),
});
export type LoginResult = z.infer<typeof LoginResultSchema>;

export const SessionIdResponseSchema = z.object({ session_id: z.string() });
export const LogoutResponseSchema = z.object({ logged_out: z.literal(true) });
/** `POST /api/v1/auth/logout` ends the caller's session; with `{"all": true}` every session of the account (every device). */
export const LogoutBodySchema = z.object({ all: z.boolean().optional() }).strict();

export const GoogleConfigSchema = z.object({ client_id: z.string() });
export const AppleConfigSchema = z.object({ client_id: z.string(), redirect_uri: z.string(), scope: z.string() });
export const FirebaseConfigSchema = z.object({ api_key: z.string(), auth_domain: z.string(), project_id: z.string() });

export const PhoneCodeSentSchema = z.object({ sent: z.literal(true), expires_in_seconds: z.number().int() });

// ---- What the web client sends -------------------------------------------------------------------

const inviteLinkId = z.string().trim().min(1).max(64).nullish();
const campaignName = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9_-]{0,62}$/i, 'must be a campaign name')
  .nullish();

/**
 * A nonce the web keeps in session storage when it starts a sign-in that leaves the page (the phone
 * callback, Google's redirect); the gateway echoes it in the `/login-success` fragment, so that the
 * page accepts a token only for a sign-in it started itself (against login CSRF).
 */
export const LOGIN_STATE_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;
export const LoginStateSchema = z.string().regex(LOGIN_STATE_PATTERN, 'must be 16 to 128 letters, digits, - or _');

export const PhoneLoginBodySchema = z.object({
  phone_number: z.string().trim().min(4).max(32),
  invite_link_id: inviteLinkId,
  campaign_name: campaignName,
});
export const PhoneCallbackQuerySchema = z.object({
  phone_number: z.string().trim().min(4).max(32),
  code: z.string().trim().min(1).max(12),
  invite_link_id: inviteLinkId,
  campaign_name: campaignName,
  login_state: LoginStateSchema.optional(),
});
export const GoogleRedirectQuerySchema = z.object({
  invite_link_id: z.string().optional(),
  campaign_name: z.string().optional(),
  login_state: LoginStateSchema.optional(),
});
export const GoogleLoginBodySchema = z.object({
  code: z.string().min(1).max(4096),
  invite_link_id: inviteLinkId,
  campaign_name: campaignName,
});
export const AppleLoginBodySchema = z.object({
  code: z.string().max(4096).nullish(),
  id_token: z.string().min(1).max(8192),
  state: z.string().max(512).nullish(),
  nonce: z.string().max(512).nullish(),
  invite_link_id: inviteLinkId,
  use_app_client_id: z.boolean().nullish(),
  campaign_name: campaignName,
});
export const FirebaseLoginBodySchema = z.object({
  id_token: z.string().min(1).max(8192),
  provider: z.string().max(64).nullish(),
  invite_link_id: inviteLinkId,
  campaign_name: campaignName,
});

export const OnboardingAgeBodySchema = z.object({
  birth_date: z.iso.date({ message: 'must be a date like 1990-04-23' }),
});
export const OnboardingProfileBodySchema = z.object({ name: z.string().trim().min(1, 'must not be empty').max(100) });

export const CreateInviteBodySchema = z.object({
  max_uses: z.number().int().min(1).max(1000).default(1),
  expires_in_days: z.number().int().min(1).max(90).default(7),
  group_id: z.string().trim().min(1).max(128).nullish(),
});
export const InviteSchema = z.object({
  invite_link_id: z.string(),
  max_uses: z.number().int(),
  uses: z.number().int(),
  group_id: z.string().nullable(),
  expires_at: z.string(),
  created_at: z.string(),
});

export const CampaignSchema = z.object({
  campaign_name: z.string(),
  title: z.string(),
  text: z.string(),
  starter_prompts: z.array(z.string()),
});
export type Campaign = z.infer<typeof CampaignSchema>;

export const AccountDeletionSchema = z.object({
  deletion_id: z.string(),
  status: z.enum(['deleted', 'pending']),
  pending_services: z.array(z.string()),
});

// ---- Calls to the auth service -------------------------------------------------------------------

/** Who is at the other end of a login, as the gateway saw them. */
const ClientSchema = z.object({ ip: z.string().max(64), user_agent: z.string().max(512).nullable() });

/**
 * The hash of the `phone_login` cookie's nonce (the gateway keeps the nonce in the browser; the
 * auth service sees and stores only its hash): a code can be completed only in the browser that
 * asked for it.
 */
const BindingHashSchema = z.string().regex(/^[A-Za-z0-9_-]{32,128}$/);
const SessionIdSchema = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);

/** Whether a session can still be used: it exists, belongs to that user, is neither ended nor expired. */
export const SessionStatusSchema = z.object({ active: z.boolean() });

/** A login: the result for the browser, and the session it opened (for cookies and headers). */
export const LoginOutcomeSchema = LoginResultSchema.extend({
  session_id: z.string().nullable(),
  expires_at: z.string().nullable(),
});
export type LoginOutcome = z.infer<typeof LoginOutcomeSchema>;

export const PublicJwkSchema = z
  .object({ kty: z.string(), kid: z.string(), alg: z.string(), use: z.string().optional() })
  .catchall(z.unknown());

export const AUTH_RPC = {
  ...commonCalls('auth'),
  /** The public keys and claims the gateway checks tokens with. */
  keys: defineRpc({
    subject: 'auth.token.keys',
    request: z.object({}).strict(),
    response: z.object({ keys: z.array(PublicJwkSchema), issuer: z.string(), audience: z.string(), algorithms: z.array(z.string()) }),
    description: 'Public keys for verifying access tokens',
  }),
  createGuest: defineRpc({
    subject: 'auth.guest.create',
    request: z.object({ client: ClientSchema }).strict(),
    response: LoginOutcomeSchema,
    description: 'Create an anonymous user and a session',
  }),
  sendPhoneCode: defineRpc({
    subject: 'auth.phone.send-code',
    request: PhoneLoginBodySchema.extend({ client: ClientSchema, binding_hash: BindingHashSchema }).strict(),
    response: PhoneCodeSentSchema,
    description: 'Text a one-time sign-in code',
  }),
  verifyPhoneCode: defineRpc({
    subject: 'auth.phone.verify-code',
    request: PhoneCallbackQuerySchema.omit({ login_state: true })
      .extend({ client: ClientSchema, binding_hash: BindingHashSchema.nullable() })
      .strict(),
    response: LoginOutcomeSchema,
    description: 'Sign in with a texted code, in the browser that asked for it (a refusal is an outcome with redirect_url)',
  }),
  loginGoogle: defineRpc({
    subject: 'auth.google.login',
    request: z
      .object({
        code: z.string().min(1).max(4096).nullish(),
        id_token: z.string().min(1).max(8192).nullish(),
        redirect_uri: z.string().max(2048).nullish(),
        invite_link_id: inviteLinkId,
        campaign_name: campaignName,
        client: ClientSchema,
      })
      .strict(),
    response: LoginOutcomeSchema,
    description: 'Sign in with a Google authorization code (or an ID token from the redirect flow)',
  }),
  loginApple: defineRpc({
    subject: 'auth.apple.login',
    request: AppleLoginBodySchema.extend({ client: ClientSchema }).strict(),
    response: LoginOutcomeSchema,
    description: 'Sign in with Apple',
  }),
  loginFirebase: defineRpc({
    subject: 'auth.firebase.login',
    request: FirebaseLoginBodySchema.extend({ client: ClientSchema }).strict(),
    response: LoginOutcomeSchema,
    description: 'Sign in with a Firebase ID token',
  }),
  providers: defineRpc({
    subject: 'auth.providers.config',
    request: z.object({}).strict(),
    response: z.object({
      google: GoogleConfigSchema.nullable(),
      apple: AppleConfigSchema.nullable(),
      firebase: FirebaseConfigSchema.nullable(),
    }),
    description: 'Public configuration of each sign-in provider (null when not configured)',
  }),
  me: defineRpc({ subject: 'auth.user.me', request: z.object({}).strict(), response: UserSchema, description: 'The calling user' }),
  logout: defineRpc({
    subject: 'auth.session.logout',
    request: LogoutBodySchema,
    response: LogoutResponseSchema,
    description: "End the caller's session everywhere (with all: every session of the caller's account)",
  }),
  /** Asked by the gateway when its cache does not know a session: the database is the source of truth. */
  sessionStatus: defineRpc({
    subject: 'auth.session.status',
    request: z.object({ session_id: SessionIdSchema, user_id: SessionIdSchema }).strict(),
    response: SessionStatusSchema,
    description: 'Whether a session is still active (exists, not ended, not expired, its user not deleted)',
  }),
  onboardingAge: defineRpc({
    subject: 'auth.onboarding.age',
    request: OnboardingAgeBodySchema.strict(),
    response: UserSchema,
    description: 'Confirm the age of majority',
  }),
  onboardingProfile: defineRpc({
    subject: 'auth.onboarding.profile',
    request: OnboardingProfileBodySchema.strict(),
    response: UserSchema,
    description: 'Set the name; registers the user once the age is confirmed',
  }),
  onboardingDone: defineRpc({
    subject: 'auth.onboarding.done',
    request: z.object({}).strict(),
    response: UserSchema,
    description: 'Finish onboarding',
  }),
  createInvite: defineRpc({
    subject: 'auth.invite.create',
    request: CreateInviteBodySchema.strict(),
    response: InviteSchema,
    description: 'Create an invite link (needs can_create_invite)',
  }),
  campaign: defineRpc({
    subject: 'auth.campaign.get',
    request: z.object({ campaign_name: z.string().min(1).max(64) }).strict(),
    response: CampaignSchema,
    description: 'A campaign page',
  }),
  /**
   * For the sms service: the account of a phone number, created when the number has none (spec 1:
   * an account per number used with the text service). The same account a phone-code sign-in gives;
   * a number from a blocked region is refused (451), an account being deleted too (409).
   */
  accountForPhone: defineRpc({
    subject: 'auth.phone.account',
    request: z.object({ phone_number: z.string().trim().min(4).max(32) }).strict(),
    response: z.object({ user_id: z.string(), phone_number: z.string(), name: z.string().nullable(), created: z.boolean() }),
    description: 'The account of a phone number, created on first use (the text service)',
  }),
  deleteAccount: defineRpc({
    subject: 'auth.account.delete',
    request: z.object({}).strict(),
    response: AccountDeletionSchema,
    description: "Delete the caller's account and everything every service holds about them",
  }),
} as const;

/**
 * The shared cache entry of a session's state, a fast path in front of the auth service's database
 * (the source of truth). The auth service writes `ended` when a session ends (logout, logout of every
 * device, account deletion, a guest merged or turned into an account), overwriting anything there;
 * the gateway writes `active:<user id>` (`activeSessionState`) for a short while after asking the auth
 * service (`sessionStatus`, which checks the session is the user's), only when the key is absent, so an `ended` mark is never overwritten by a stale answer.
 */
export function sessionStateKey(sessionId: string): string {
  return `auth:session-state:${sessionId}`;
}
export const SESSION_STATE = { ended: 'ended' } as const;

/**
 * The "active" mark of a session names the user it belongs to: a token is trusted from the cache
 * only when its `sub` is that user, so a live session id of one's own never vouches for a token
 * naming another account (issue 22.3).
 */
export function activeSessionState(userId: string): string {
  return `active:${userId}`;
}
