import type { AppleConfigSchema, FirebaseConfigSchema, LoginResult, User } from '@app/contracts/auth';
import { HEADERS } from '@app/contracts/common/constants';
import type { z } from 'zod';
import { apiErrorOf, apiFetch, apiJson, ApiError, jsonBody } from '../../common/api/http';

export type AppleConfig = z.infer<typeof AppleConfigSchema>;
export type FirebaseConfig = z.infer<typeof FirebaseConfigSchema>;

const AUTH = '/api/v1/auth';

export const CSRF_FAILURE = 'Failed to fetch CSRF token';

/** POST /auth/anon: a new guest and their token. */
export function createAnonymousUser(): Promise<LoginResult> {
  return apiJson<LoginResult>(`${AUTH}/anon`, { method: 'POST', bearer: false });
}

/** GET /auth/me with a given token (the one being validated). */
export async function fetchMe(token: string): Promise<User> {
  return apiJson<User>(`${AUTH}/me`, { headers: { authorization: `Bearer ${token}` } });
}

/** GET /auth/csrf-token: the token is read from the X-CSRF-Token response header. */
export async function fetchCsrfToken(): Promise<string> {
  let response: Response;
  try {
    response = await apiFetch(`${AUTH}/csrf-token`, { bearer: false, cache: 'no-store' });
  } catch {
    throw new Error(CSRF_FAILURE);
  }
  const token = response.headers.get(HEADERS.csrfToken);
  if (!response.ok || !token) throw new Error(CSRF_FAILURE);
  return token;
}

export function fetchSessionId(): Promise<{ session_id: string }> {
  return apiJson(`${AUTH}/session-id`);
}

export async function logoutOnServer(csrfToken: string | null): Promise<void> {
  const response = await apiFetch(`${AUTH}/logout`, { method: 'POST', extraHeaders: csrfToken ? { [HEADERS.csrfToken]: csrfToken } : {} });
  if (!response.ok) throw await apiErrorOf(response);
}

export type LoginContext = { inviteLinkId?: string | null; campaignName?: string | null };

export function sendPhoneCode(phoneNumber: string, csrfToken: string, context: LoginContext = {}): Promise<{ sent: true; expires_in_seconds: number }> {
  return apiJson(`${AUTH}/login/phone_number`, {
    method: 'POST',
    ...jsonBody({ phone_number: phoneNumber, invite_link_id: context.inviteLinkId ?? undefined, campaign_name: context.campaignName ?? undefined }),
    extraHeaders: { [HEADERS.csrfToken]: csrfToken },
  });
}

/** The callback is a full page navigation; the server redirects to /login-success#access_token=... */
export function phoneCallbackUrl(phoneNumber: string, code: string, context: LoginContext = {}): string {
  const query = new URLSearchParams({ phone_number: phoneNumber, code });
  if (context.inviteLinkId) query.set('invite_link_id', context.inviteLinkId);
  if (context.campaignName) query.set('campaign_name', context.campaignName);
  return `${AUTH}/callback/phone_number?${query}`;
}

export function googleRedirectUrl(context: LoginContext = {}): string {
  const query = new URLSearchParams();
  if (context.inviteLinkId) query.set('invite_link_id', context.inviteLinkId);
  if (context.campaignName) query.set('campaign_name', context.campaignName);
  const search = query.toString();
  return `${AUTH}/google/redirect${search ? `?${search}` : ''}`;
}

/** A provider's public configuration, or null when it is not configured (404) or unreachable. */
async function providerConfig<T>(provider: 'google' | 'apple' | 'firebase'): Promise<T | null> {
  try {
    const response = await apiFetch(`${AUTH}/${provider}/config`, { bearer: false });
    if (!response.ok) return null;
    return (await response.json()) as T;
  } catch {
    return null;
  }
}

export const fetchGoogleConfig = () => providerConfig<{ client_id: string }>('google');
export const fetchAppleConfig = () => providerConfig<AppleConfig>('apple');
export const fetchFirebaseConfig = () => providerConfig<FirebaseConfig>('firebase');

function login(path: string, body: object, csrfToken: string): Promise<LoginResult> {
  return apiJson<LoginResult>(`${AUTH}/login/${path}`, { method: 'POST', ...jsonBody(body), extraHeaders: { [HEADERS.csrfToken]: csrfToken } });
}

export const loginWithGoogle = (code: string, csrf: string, context: LoginContext = {}) =>
  login('google', { code, invite_link_id: context.inviteLinkId ?? null, campaign_name: context.campaignName ?? undefined }, csrf);

export const loginWithApple = (
  body: { code?: string | null; id_token: string; state?: string | null; nonce?: string | null; use_app_client_id?: boolean },
  csrf: string,
  context: LoginContext = {},
) => login('apple', { ...body, invite_link_id: context.inviteLinkId ?? null, campaign_name: context.campaignName ?? undefined }, csrf);

export const loginWithFirebase = (idToken: string, provider: string, csrf: string, context: LoginContext = {}) =>
  login('firebase', { id_token: idToken, provider, invite_link_id: context.inviteLinkId ?? null, campaign_name: context.campaignName ?? undefined }, csrf);

/** Whether the development SMS inbox is on (embedded mode with the console sink). */
export async function devSmsInboxAvailable(): Promise<boolean> {
  try {
    const response = await apiFetch('/api/v1/dev/sms/messages', { bearer: false, cache: 'no-store' });
    return response.status === 200;
  } catch {
    return false;
  }
}

export { ApiError };
