import type { AppleConfigSchema, FirebaseConfigSchema, LoginResult, User } from '@app/contracts/auth';
import { HEADERS } from '@app/contracts/common/constants';
import { API } from '@app/contracts/gateway';
import { routeUrl, type RouteInput, type RouteResponse, type RouteTarget } from '@app/contracts/gateway/route';
import type { z } from 'zod';
import { ApiError, call } from '../../common/api/http';

export type AppleConfig = z.infer<typeof AppleConfigSchema>;
export type FirebaseConfig = z.infer<typeof FirebaseConfigSchema>;

export const CSRF_FAILURE = 'Failed to fetch CSRF token';

/**
 * The sign-in calls are public: made without a login, and a 401 is an ordinary failure (the token
 * they would lose is the one being made or checked). Credentials (the cookies) are sent.
 */
const signIn = { public: true } as const;
const withCsrf = (csrfToken: string) => ({ ...signIn, extraHeaders: { [HEADERS.csrfToken]: csrfToken } });

/** POST /auth/anon: a new guest and their token. */
export function createAnonymousUser(): Promise<LoginResult> {
  return call(API.auth.anon, {}, { ...signIn, bearer: false });
}

/** GET /auth/me with a given token (the one being validated). */
export async function fetchMe(token: string): Promise<User> {
  return call(API.auth.me, {}, { ...signIn, headers: { authorization: `Bearer ${token}` } });
}

/** GET /auth/csrf-token: the token is read from the X-CSRF-Token response header. */
export async function fetchCsrfToken(): Promise<string> {
  let token: string | null;
  try {
    token = await call(
      API.auth.csrfToken,
      {},
      { ...signIn, bearer: false, cache: 'no-store', read: (r) => r.headers.get(HEADERS.csrfToken) },
    );
  } catch {
    throw new Error(CSRF_FAILURE);
  }
  if (!token) throw new Error(CSRF_FAILURE);
  return token;
}

export function fetchSessionId(): Promise<{ session_id: string }> {
  return call(API.auth.sessionId, {});
}

export async function logoutOnServer(csrfToken: string | null): Promise<void> {
  await call(API.auth.logout, { body: {} }, { ...signIn, extraHeaders: csrfToken ? { [HEADERS.csrfToken]: csrfToken } : {} });
}

export type LoginContext = { inviteLinkId?: string | null; campaignName?: string | null };

export function sendPhoneCode(
  phoneNumber: string,
  csrfToken: string,
  context: LoginContext = {},
): Promise<RouteResponse<typeof API.auth.sendPhoneCode>> {
  const body = {
    phone_number: phoneNumber,
    invite_link_id: context.inviteLinkId ?? undefined,
    campaign_name: context.campaignName ?? undefined,
  };
  return call(API.auth.sendPhoneCode, { body }, withCsrf(csrfToken));
}

/**
 * The callback is a full page navigation; the server redirects to
 * /login-success#access_token=...&login_state=... (loginState is this tab's nonce, see utils/loginState).
 */
export function phoneCallbackUrl(phoneNumber: string, code: string, loginState: string, context: LoginContext = {}): string {
  return routeUrl(API.auth.phoneCallback.path, {}, { phone_number: phoneNumber, code, ...signUpContext(context), login_state: loginState });
}

/** The start of Google's redirect flow, which ends on /login-success with the same nonce. */
export function googleRedirectUrl(loginState: string, context: LoginContext = {}): string {
  return routeUrl(API.auth.googleRedirect.path, {}, { ...signUpContext(context), login_state: loginState });
}

/** The invite and campaign of a page navigation's sign-in, when there are (empty ones left out). */
const signUpContext = (context: LoginContext) => ({
  invite_link_id: context.inviteLinkId || undefined,
  campaign_name: context.campaignName || undefined,
});

/** A provider's public configuration, or null when it is not configured (404) or unreachable. */
async function providerConfig<R extends RouteTarget>(route: R): Promise<RouteResponse<R> | null> {
  try {
    return await call(route, {} as RouteInput<R>, { ...signIn, bearer: false });
  } catch {
    return null;
  }
}

export const fetchGoogleConfig = () => providerConfig(API.auth.googleConfig);
export const fetchAppleConfig = (): Promise<AppleConfig | null> => providerConfig(API.auth.appleConfig);
export const fetchFirebaseConfig = (): Promise<FirebaseConfig | null> => providerConfig(API.auth.firebaseConfig);

export const loginWithGoogle = (code: string, csrf: string, context: LoginContext = {}) =>
  call(
    API.auth.loginGoogle,
    { body: { code, invite_link_id: context.inviteLinkId ?? null, campaign_name: context.campaignName ?? undefined } },
    withCsrf(csrf),
  );

export const loginWithApple = (
  body: { code?: string | null; id_token: string; state?: string | null; nonce?: string | null; use_app_client_id?: boolean },
  csrf: string,
  context: LoginContext = {},
) =>
  call(
    API.auth.loginApple,
    { body: { ...body, invite_link_id: context.inviteLinkId ?? null, campaign_name: context.campaignName ?? undefined } },
    withCsrf(csrf),
  );

export const loginWithFirebase = (idToken: string, provider: string, csrf: string, context: LoginContext = {}) =>
  call(
    API.auth.loginFirebase,
    {
      body: { id_token: idToken, provider, invite_link_id: context.inviteLinkId ?? null, campaign_name: context.campaignName ?? undefined },
    },
    withCsrf(csrf),
  );

/** The development inbox's page for one number (it shows one number's texts, never all). */
export const devSmsInboxUrl = (phoneNumber: string) => routeUrl(API.dev.smsInbox.path, {}, { to: phoneNumber });

/** Whether the development SMS inbox is on here (embedded mode with the console sink, asked from this machine). */
export async function devSmsInboxAvailable(phoneNumber: string): Promise<boolean> {
  try {
    const input = { query: { to: phoneNumber } };
    return await call(API.dev.smsMessages, input, { ...signIn, bearer: false, cache: 'no-store', read: (r) => r.status === 200 });
  } catch {
    return false;
  }
}

export { ApiError };
