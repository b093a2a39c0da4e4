import { apiErrorOf, apiFetch, type ApiInit, type RouteCall } from './http';

/** A call given as a declared route's (routeCall), or as a URL and its request (routes not declared yet). */
const callOf = <T>(target: string | RouteCall<T>, init: ApiInit = {}) => (typeof target === 'string' ? { url: target, init } : target);

/**
 * The rules every data call follows (spec sections 5 and 8): it needs a logged-in state and an
 * access token; a 401 logs the user out; other failures throw the call's own message.
 */
type AuthGate = { isAuthenticated: () => boolean; onUnauthorized: () => Promise<void> | void };

let gate: AuthGate = { isAuthenticated: () => false, onUnauthorized: () => undefined };

export function setAuthGate(next: AuthGate): void {
  gate = next;
}

export const NOT_AUTHENTICATED = 'Not authenticated';
export const UNAUTHORIZED = 'Unauthorized';

async function parse<T>(response: Response): Promise<T> {
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/**
 * A read that answers a list (or false): without auth it answers `empty`; on 401 it logs out and
 * answers `empty`; any other failure throws `failure` (or the general detail / API Error text).
 */
export async function readCall<T>(target: string | RouteCall<T>, empty: T, failure?: string, init: ApiInit = {}): Promise<T> {
  if (!gate.isAuthenticated()) return empty;
  const call = callOf(target, init);
  const response = await apiFetch(call.url, call.init);
  if (response.status === 401) {
    await gate.onUnauthorized();
    return empty;
  }
  if (!response.ok) throw failure ? new Error(failure) : await apiErrorOf(response);
  return parse<T>(response);
}

/**
 * An update or delete: without auth it throws 'Not authenticated'; on 401 it logs out and throws
 * 'Unauthorized'; any other failure throws `failure` (or the general detail / API Error text).
 */
export async function writeCall<T>(call: RouteCall<T>, failure?: string): Promise<T>;
export async function writeCall<T>(url: string, init: ApiInit, failure?: string): Promise<T>;
export async function writeCall<T>(target: string | RouteCall<T>, initOrFailure?: ApiInit | string, failure?: string): Promise<T> {
  if (!gate.isAuthenticated()) throw new Error(NOT_AUTHENTICATED);
  const call = typeof target === 'string' ? { url: target, init: initOrFailure as ApiInit } : target;
  if (typeof target !== 'string') failure = initOrFailure as string | undefined;
  const response = await apiFetch(call.url, call.init);
  if (response.status === 401) {
    await gate.onUnauthorized();
    throw new Error(UNAUTHORIZED);
  }
  if (!response.ok) throw failure ? new Error(failure) : await apiErrorOf(response);
  return parse<T>(response);
}

/** Insider and voice calls: skipped (undefined) without a token; 401 logs out. */
export async function optionalCall<T>(target: string | RouteCall<T>, init: ApiInit = {}): Promise<T | undefined> {
  if (!gate.isAuthenticated()) return undefined;
  const call = callOf(target, init);
  const response = await apiFetch(call.url, call.init);
  if (response.status === 401) {
    await gate.onUnauthorized();
    return undefined;
  }
  if (!response.ok) throw await apiErrorOf(response);
  return parse<T>(response);
}

export function isAuthenticated(): boolean {
  return gate.isAuthenticated();
}
