import { HEADERS, PRODUCT_CONSTANTS } from '@app/contracts/common/constants';
import { routeUrl, type RouteInput, type RouteResponse, type RouteTarget } from '@app/contracts/gateway/route';
import { randomId } from '../utils/ids';
import { readStorage, STORAGE_KEYS, writeStorage } from '../utils/storage';

/*
 * The one way the client calls the server: `call(API.area.name, input, options)`, a route declared
 * in the contracts. Every call follows the same rules (spec sections 5, 7 and 8); the options only
 * say what a call answers instead of failing, and its own failure text.
 */

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

export const NOT_AUTHENTICATED = 'Not authenticated';
export const UNAUTHORIZED = 'Unauthorized';

/** Who is calling, for the request headers; set by the auth module. */
export type RequestIdentity = { accessToken: string | null; userId: string | null; userLabel: string | null };

let identity: () => RequestIdentity = () => ({ accessToken: null, userId: null, userLabel: null });

export function setRequestIdentity(provider: () => RequestIdentity): void {
  identity = provider;
}

/** Whether the user is signed in with a token, and what a 401 does (log out); set by the auth module. */
type AuthGate = { isAuthenticated: () => boolean; onUnauthorized: () => Promise<void> | void };

let gate: AuthGate = { isAuthenticated: () => false, onUnauthorized: () => undefined };

export function setAuthGate(next: AuthGate): void {
  gate = next;
}

export function isAuthenticated(): boolean {
  return gate.isAuthenticated();
}

/** Header values must be printable Latin-1; anything else would make fetch throw. */
function headerSafe(value: string): string {
  return value.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');
}

function userLabelHeader(label: string): string {
  return headerSafe(label.slice(0, PRODUCT_CONSTANTS.userLabelMaxLength));
}

export type ApiInit = RequestInit & {
  /** Send the bearer token (default true). */
  bearer?: boolean;
  /** Extra headers merged last. */
  extraHeaders?: Record<string, string>;
};

/** One request of a declared route: its URL and fetch options. */
export type RouteRequest = { readonly url: string; readonly init: ApiInit };

/**
 * The request of a declared route (`API.memory.update`): the URL from its path (parameters
 * encoded) and query, its method, and for POST, PUT and PATCH a JSON body (the given one, else
 * `{}`) unless `init` brings its own (a file upload, a recording).
 */
export function routeRequest<R extends RouteTarget>(route: R, input: RouteInput<R>, init: ApiInit = {}): RouteRequest {
  const { params, query, body } = input as { params?: Record<string, string>; query?: Record<string, unknown>; body?: unknown };
  const json = route.method !== 'GET' && route.method !== 'DELETE' && init.body === undefined;
  const headers = {
    ...(json ? { 'content-type': 'application/json' } : {}),
    ...(init.headers as Record<string, string> | undefined),
  };
  return {
    url: routeUrl(route.path, params, query),
    init: { method: route.method, ...(json ? { body: JSON.stringify(body ?? {}) } : {}), ...init, headers },
  };
}

/** The product's own headers on a request to this origin (session, user, request id, bearer token). */
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

/**
 * The request as sent (to this origin: the routes' paths are root-relative): it carries the session
 * id (from session storage), the user id and label (cut at 100), a fresh request id and the bearer
 * token; the cookies go too (credentials). An answer's X-User-Session-Id replaces the stored session id.
 */
async function send({ url, init }: RouteRequest): Promise<Response> {
  const { bearer = true, extraHeaders, ...request } = init;
  const headers = new Headers(request.headers);
  identityHeaders(headers, bearer);
  for (const [name, value] of Object.entries(extraHeaders ?? {})) headers.set(name, value);
  const response = await fetch(url, { credentials: 'same-origin', ...request, headers });
  const session = response.headers.get(HEADERS.userSessionId);
  if (session) writeStorage(STORAGE_KEYS.userSessionId, session, 'session');
  return response;
}

/** The error of a failed answer: its `detail`, else `API Error: {status}`. */
async function apiErrorOf(response: Response): Promise<ApiError> {
  let detail: unknown;
  try {
    detail = ((await response.json()) as { detail?: unknown })?.detail;
  } catch {
    detail = undefined;
  }
  const message = typeof detail === 'string' && detail.trim() ? detail : `API Error: ${response.status}`;
  return new ApiError(message, response.status);
}

/** A JSON answer (none for a 204 or an empty body). */
async function jsonOf<T>(response: Response): Promise<T> {
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export type CallOptions<A, E> = ApiInit & {
  /**
   * A call of the sign-in or of a public page (the anonymous sign-in, the CSRF token, a provider's
   * configuration, a campaign, a group invite, a token being checked): it is made without a login,
   * and a 401 is an ordinary failure. Every other call is the signed-in user's (below).
   */
  public?: boolean;
  /**
   * What the user's call answers without a login, and after a 401 (which logs out): a list's `[]`,
   * `false`, `null`, or `undefined` for the insider and voice calls, which are skipped. Without it
   * the call throws 'Not authenticated' (no request made) or, after the 401, 'Unauthorized'.
   */
  orElse?: E;
  /** What any other failure throws, instead of the answer's `detail` or `API Error: {status}` (the spec's texts). */
  failure?: string | ((status: number) => Error);
  /** Reads a successful answer (headers, bytes, a stream); its JSON body otherwise. */
  read?: (response: Response) => Promise<A> | A;
};

/**
 * Calls a declared route. The rules (spec sections 5, 7 and 8):
 * - the signed-in user's calls need a login and a token, else they answer `orElse` or throw
 *   'Not authenticated' before any request; a 401 logs the user out, then they answer `orElse` or
 *   throw 'Unauthorized' (the one 401 rule; `public` calls have no login to lose);
 * - any other failure throws `failure`, else the answer's `detail`, else `API Error: {status}`;
 * - the answer is typed from the route's response schema, not parsed again (the server checked it).
 */
export async function call<R extends RouteTarget, A = RouteResponse<R>, E = never>(
  route: R,
  input: RouteInput<R>,
  options: CallOptions<A, E> = {},
): Promise<A | E> {
  const { public: open = false, orElse, failure, read, ...init } = options;
  const fallBack = 'orElse' in options;
  if (!open && !gate.isAuthenticated()) {
    if (fallBack) return orElse as E;
    throw new Error(NOT_AUTHENTICATED);
  }
  const response = await send(routeRequest(route, input, init));
  if (response.status === 401 && !open) {
    await gate.onUnauthorized();
    if (fallBack) return orElse as E;
    throw new Error(UNAUTHORIZED);
  }
  if (!response.ok) {
    if (typeof failure === 'function') throw failure(response.status);
    throw failure ? new Error(failure) : await apiErrorOf(response);
  }
  return read ? read(response) : jsonOf<A>(response);
}
