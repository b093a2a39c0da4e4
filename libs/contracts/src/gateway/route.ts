import type { z } from 'zod';
import type { RpcContract } from '../common/contract';

/*
 * One HTTP route of the gateway, declared once: the gateway registers it from this (method, path,
 * status, access, validation; a plain proxy to one RPC needs no handler at all), the OpenAPI
 * document describes it from this, and the web client calls it from this (URL and types).
 * This module has no runtime dependency: the browser loads it.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The stricter rate limits a route may count against, per client address (the gateway's limiter,
 * services/gateway/src/http/rate-limit.ts, holds their sizes as shares of RATE_LIMIT_PER_MINUTE):
 * - `sign-in`: it makes an account or texts a sign-in code; besides the global limit;
 * - `texting`: it makes the product text a number someone typed, text as a chosen number (the
 *   development phone), or make groups and group invite links; besides the global limit;
 * - `webhook`: Twilio's webhooks, which arrive for every user from Twilio's few addresses: a bucket
 *   of their own, larger than the global limit, instead of the browsers' one.
 */
export type RateLimitClass = 'sign-in' | 'texting' | 'webhook';

export interface RouteDeclaration {
  readonly method: HttpMethod;
  /**
   * Fastify-style path (`/api/v1/chats/:chat_id`). A trailing slash is the URL the web client calls
   * (`GET /api/v1/chats/`); the gateway answers it with or without the slash.
   */
  readonly path: string;
  readonly summary: string;
  /** The OpenAPI tag (the area of the product). */
  readonly tag: string;
  /** `bearer`: a valid access token; `public`: anyone (a token, when sent, still names the caller). */
  readonly auth: 'bearer' | 'public';
  /** It acts on cookies the browser sends by itself: it needs the X-CSRF-Token header (double submit). */
  readonly csrf?: boolean;
  /**
   * It makes the product send a text (to a number the caller typed, or as a number the caller
   * chose). The gateway refuses it from another site: an `Origin` other than this server's, or
   * `Sec-Fetch-Site: cross-site|same-site`, is 403 before anything runs, so no page of another site
   * can make the product text anyone (its body is JSON only, like every route's declared body).
   */
  readonly sendsText?: boolean;
  /**
   * The stricter rate limit it counts against (see RateLimitClass); every /api/v1 route also counts
   * against the global RATE_LIMIT_PER_MINUTE, except the webhooks.
   */
  readonly rateLimit?: RateLimitClass;
  /** Path parameters, checked before any handler runs (422 naming the parameter). */
  readonly params?: z.ZodObject;
  readonly query?: z.ZodObject;
  readonly body?: z.ZodType;
  /** The success answer; `null` when it has no body. */
  readonly response: z.ZodType | null;
  /** The status of the success answer (200 unless said). */
  readonly status?: number;
  /** Other answers that are not failures (a 503 readiness report, a 202 deletion still running). */
  readonly otherAnswers?: Readonly<Record<number, z.ZodType | null>>;
  /** Failures worth naming in the documentation, by status (every failure is `{detail}`). */
  readonly errors?: Readonly<Record<number, string>>;
  /** Content type of the success answer when it is not JSON. */
  readonly produces?: string;
  /**
   * Content type of the body when it is not JSON (multipart uploads, Twilio's form posts). A route
   * that declares a `body` takes that type only (JSON when `consumes` is absent): the gateway answers
   * 415 to any other before reading it.
   */
  readonly consumes?: string;
  /**
   * A plain proxy: the gateway calls this RPC with the path parameters, the query and the body
   * merged into one request, as the caller, and answers what it answers (nothing for a `null`
   * response). Routes that do more (streams, files, cookies, redirects) have a handler instead.
   */
  readonly rpc?: RpcContract;
}

/** Declares a route; keeps its literal types (method, path, schemas) for the typed calls. */
export function defineRoute<const R extends RouteDeclaration>(route: R): R {
  return Object.freeze(route);
}

/** The routes of the product, grouped by area (`API.memory.update`). */
export type RouteGroups = Readonly<Record<string, Readonly<Record<string, RouteDeclaration>>>>;

/** Every route of the groups, with its name (`memory.update`). */
export function routeEntries(groups: RouteGroups): [name: string, route: RouteDeclaration][] {
  return Object.entries(groups).flatMap(([area, routes]) =>
    Object.entries(routes).map(([name, route]): [string, RouteDeclaration] => [`${area}.${name}`, route]),
  );
}

/** A path as the router matches it: without the trailing slash. */
export const routeKeyPath = (path: string) => (path.length > 1 ? path.replace(/\/$/, '') : path);

// ---- Typed calls (the web client) -------------------------------------------------------------

/** What a caller needs of a route at run time. */
export type RouteTarget = Pick<RouteDeclaration, 'method' | 'path'>;

type PathNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** The path parameters of a route, as text. */
export type RouteParams<R extends RouteTarget> = { [K in PathNames<R['path']>]: string };
export type RouteQuery<R> = R extends { query: infer S extends z.ZodType } ? z.input<S> : never;
/** The JSON body of a route (a multipart upload, `consumes`, is sent as FormData by the caller). */
export type RouteBody<R> = R extends { consumes: string } ? never : R extends { body: infer S extends z.ZodType } ? z.input<S> : never;
export type RouteResponse<R> = R extends { response: infer S extends z.ZodType } ? z.output<S> : void;

/** What a call of the route sends: only the parts the route declares, each required when it has required fields. */
export type RouteInput<R extends RouteTarget> = ([PathNames<R['path']>] extends [never] ? object : { params: RouteParams<R> }) &
  ([RouteQuery<R>] extends [never] ? object : { query?: RouteQuery<R> }) &
  ([RouteBody<R>] extends [never] ? object : { body: RouteBody<R> });

/**
 * The URL of a call: each `:name` replaced by its value (encodeURIComponent), the query appended
 * (URLSearchParams; absent values left out, an empty text kept).
 */
export function routeUrl(
  path: string,
  params: Readonly<Record<string, string>> = {},
  query: Readonly<Record<string, unknown>> = {},
): string {
  const filled = path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_match, name: string) => {
    const value = params[name];
    if (typeof value !== 'string') throw new Error(`${path}: the path parameter ${name} is missing`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== null) search.set(name, String(value));
  const text = search.toString();
  return text ? `${filled}?${text}` : filled;
}
