import { HEADERS, PRODUCT_CONSTANTS } from '@app/contracts/common/constants';
import { routeUrl, type RouteInput, type RouteResponse, type RouteTarget } from '@app/contracts/gateway/route';
import { randomId } from '../utils/ids';
import { readStorage, STORAGE_KEYS, writeStorage } from '../utils/storage';

/** An API failure: the message is the body's `detail`, else `API Error: {status}` (spec section 8). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Who is calling, for the request headers; set by the auth module. */
export type RequestIdentity = { accessToken: string | null; userId: string | null; userLabel: string | null };

let identity: () => RequestIdentity = () => ({ accessToken: null, userId: null, userLabel: null });

export function setRequestIdentity(provider: () => RequestIdentity): void {
  identity = provider;
}

/** Header values must be printable Latin-1; anything else would make fetch throw. */
function headerSafe(value: string): string {
  return value.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');
}

export function userLabelHeader(label: string): string {
  return headerSafe(label.slice(0, PRODUCT_CONSTANTS.userLabelMaxLength));
}

export function isSameOrigin(url: string): boolean {
  try {
    return new URL(url, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
}

export type ApiInit = RequestInit & {
  /** Send the bearer token (default true). */
  bearer?: boolean;
  /** Extra headers merged last. */
  extraHeaders?: Record<string, string>;
};

/**
 * Every request of the client goes through here. Same-origin requests carry the session id (from
 * session storage), the user id and label (cut at 100), and a fresh request id; an answer's
 * X-User-Session-Id replaces the stored session id.
 */
/** The product's own headers on a same-origin request (session, user, request id, bearer token). */
export function identityHeaders(headers: Headers, bearer = true): Headers {
  const who = identity();
  const sessionId = readStorage(STORAGE_KEYS.userSessionId, 'session');
  if (sessionId) headers.set(HEADERS.userSessionId, sessionId);
  if (who.userId) headers.set(HEADERS.userId, who.userId);
  if (who.userLabel) headers.set(HEADERS.userLabel, userLabelHeader(who.userLabel));
  headers.set(HEADERS.requestId, randomId());
  if (bearer && who.accessToken && !headers.has('authorization')) headers.set('authorization', `Bearer ${who.accessToken}`);
  return headers;
}

export async function apiFetch(url: string, init: ApiInit = {}): Promise<Response> {
  const { bearer = true, extraHeaders, ...request } = init;
  const headers = new Headers(request.headers);
  const sameOrigin = isSameOrigin(url);
  if (sameOrigin) identityHeaders(headers, bearer);
  if (request.body !== undefined && typeof request.body === 'string' && !headers.has('content-type'))
    headers.set('content-type', 'application/json');
  for (const [name, value] of Object.entries(extraHeaders ?? {})) headers.set(name, value);
  const response = await fetch(url, { credentials: 'same-origin', ...request, headers });
  if (sameOrigin) {
    const session = response.headers.get(HEADERS.userSessionId);
    if (session) writeStorage(STORAGE_KEYS.userSessionId, session, 'session');
  }
  return response;
}

/** The error of a failed answer: its `detail`, else `API Error: {status}`. */
export async function apiErrorOf(response: Response): Promise<ApiError> {
  let detail: unknown;
  try {
    detail = ((await response.json()) as { detail?: unknown })?.detail;
  } catch {
    detail = undefined;
  }
  const message = typeof detail === 'string' && detail.trim() ? detail : `API Error: ${response.status}`;
  return new ApiError(message, response.status);
}

/** A JSON call: the parsed body, or an ApiError. */
export async function apiJson<T>(target: string | RouteCall<T>, init: ApiInit = {}): Promise<T> {
  const call = typeof target === 'string' ? { url: target, init } : target;
  const response = await apiFetch(call.url, call.init);
  if (!response.ok) throw await apiErrorOf(response);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export function jsonBody(body: unknown): Pick<RequestInit, 'body' | 'headers'> {
  return { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
}

/** One call of a declared route: its URL and request; `T` is the type of its answer. */
export type RouteCall<T> = { readonly url: string; readonly init: ApiInit; readonly answer?: T };

/**
 * A call of a route declared in the contracts (`API.memory.update`): the URL from its path
 * (parameters encoded) and query, its method, and for POST, PUT and PATCH a JSON body (the given
 * one, else `{}`) unless `init` brings its own (a file upload). The answer is typed from the
 * route's response schema; it is not parsed (the server checked it).
 */
export function routeCall<R extends RouteTarget>(route: R, input: RouteInput<R>, init: ApiInit = {}): RouteCall<RouteResponse<R>> {
  const { params, query, body } = input as { params?: Record<string, string>; query?: Record<string, unknown>; body?: unknown };
  const json = route.method !== 'GET' && route.method !== 'DELETE' && init.body === undefined ? jsonBody(body ?? {}) : {};
  const headers = { ...(json.headers as Record<string, string> | undefined), ...(init.headers as Record<string, string> | undefined) };
  return { url: routeUrl(route.path, params, query), init: { method: route.method, ...json, ...init, headers } };
}

/** Calls a declared route: its typed answer, or an ApiError (`detail`, else `API Error: {status}`). */
export const apiCall = <R extends RouteTarget>(route: R, input: RouteInput<R>, init: ApiInit = {}): Promise<RouteResponse<R>> =>
  apiJson(routeCall(route, input, init));
