import type { AppleConfigSchema, FirebaseConfigSchema, LoginResult, User } from '@app/contracts/auth';
import { HEADERS } from '@app/contracts/common/constants';
import { API } from '@app/contracts/gateway';
import { routeUrl, type RouteInput, type RouteResponse, type RouteTarget } from '@app/contracts/gateway/route';
import type { z } from 'zod';
import { apiCall, apiErrorOf, apiFetch, ApiError, routeCall } from '../../common/api/http';

export type AppleConfig = z.infer<typeof AppleConfigSchema>;
export type FirebaseConfig = z.infer<typeof FirebaseConfigSchema>;

export const CSRF_FAILURE = 'Failed to fetch CSRF token';

/** POST /auth/anon: a new guest and their token. */
export function createAnonymousUser(): Promise<LoginResult> {
  return apiCall(API.auth.anon, {}, { bearer: false });
}

/** GET /auth/me with a given token (the one being validated). */
export async function fetchMe(token: string): Promise<User> {
  return apiCall(API.auth.me, {}, { headers: { authorization: `Bearer ${token}` } });
}

/** GET /auth/csrf-token: the token is read from the X-CSRF-Token response header. */
export async function fetchCsrfToken(): Promise<string> {
  let response: Response;
  try {
    const call = routeCall(API.auth.csrfToken, {}, { bearer: false, cache: 'no-store' });
    response = await apiFetch(call.url, call.init);
  } catch {
    throw new Error(CSRF_FAILURE);
  }
  const token = response.headers.get(HEADERS.csrfToken);
  if (!response.ok || !token) throw new Error(CSRF_FAILURE);
  return token;
}

export function fetchSessionId(): Promise<{ session_id: string }> {
  return apiCall(API.auth.sessionId, {});
}

export async function logoutOnServer(csrfToken: string | null): Promise<void> {
  const call = routeCall(API.auth.logout, { body: {} }, { extraHeaders: csrfToken ? { [HEADERS.csrfToken]: csrfToken } : {} });
  const response = await apiFetch(call.url, call.init);
  if (!response.ok) throw await apiErrorOf(response);
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
  return apiCall(API.auth.sendPhoneCode, { body }, { extraHeaders: { [HEADERS.csrfToken]: csrfToken } });
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
    const call = routeCall(route, {} as RouteInput<R>, { bearer: false });
    const response = await apiFetch(call.url, call.init);
    if (!response.ok) return null;
    return (await response.json()) as RouteResponse<R>;
  } catch {
    return null;
  }
}

export const fetchGoogleConfig = () => providerConfig(API.auth.googleConfig);
export const fetchAppleConfig = (): Promise<AppleConfig | null> => providerConfig(API.auth.appleConfig);
export const fetchFirebaseConfig = (): Promise<FirebaseConfig | null> => providerConfig(API.auth.firebaseConfig);

const withCsrf = (csrfToken: string) => ({ extraHeaders: { [HEADERS.csrfToken]: csrfToken } });

export const loginWithGoogle = (code: string, csrf: string, context: LoginContext = {}) =>
  apiCall(
    API.auth.loginGoogle,
    { body: { code, invite_link_id: context.inviteLinkId ?? null, campaign_name: context.campaignName ?? undefined } },
    withCsrf(csrf),
  );

export const loginWithApple = (
  body: { code?: string | null; id_token: string; state?: string | null; nonce?: string | null; use_app_client_id?: boolean },
  csrf: string,
  context: LoginContext = {},
) =>
  apiCall(
    API.auth.loginApple,
    { body: { ...body, invite_link_id: context.inviteLinkId ?? null, campaign_name: context.campaignName ?? undefined } },
    withCsrf(csrf),
  );

export const loginWithFirebase = (idToken: string, provider: string, csrf: string, context: LoginContext = {}) =>
  apiCall(
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
    const call = routeCall(API.dev.smsMessages, { query: { to: phoneNumber } }, { bearer: false, cache: 'no-store' });
    const response = await apiFetch(call.url, call.init);
    return response.status === 200;
  } catch {
    return false;
  }
}

export { ApiError };
