import { HTTP_ROUTES, routeKeyPath, type RouteDeclaration } from '@app/contracts/gateway';
import { DomainError, type AppLogger } from '@app/platform';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fromAnotherSite } from '../auth/auth.guard';
import { sendFailure } from './http-errors';

export const CROSS_SITE_REFUSED = 'This request came from another site: nothing was sent.';
export const unsupportedMediaType = (expected: string) => `This route takes ${expected} only.`;

/** The declared routes, by `METHOD path` as the router matched them (without the trailing slash). */
const DECLARED = new Map(HTTP_ROUTES.map((route) => [`${route.method} ${routeKeyPath(route.path)}`, route]));

/** The declaration of the route a request matched, if it is one of the API's. */
export function declaredRouteOf(request: Pick<FastifyRequest, 'method' | 'routeOptions'>): RouteDeclaration | undefined {
  const url = request.routeOptions?.url;
  return url ? DECLARED.get(`${request.method} ${routeKeyPath(url)}`) : undefined;
}

/** The one media type a route's body may have: its `consumes`, else JSON; none when it declares no body (it reads what it is sent). */
export function bodyMediaType(route: RouteDeclaration): string | undefined {
  return route.body ? (route.consumes ?? 'application/json') : undefined;
}

/** `Application/JSON; charset=utf-8` → `application/json`. */
export function mediaTypeOf(contentType: string | undefined): string | undefined {
  const type = contentType?.split(';')[0].trim().toLowerCase();
  return type || undefined;
}

type Headed = Pick<FastifyRequest, 'headers' | 'host'>;

/** Whether the request carries a body (a length above zero, or chunks). */
function hasBody(request: Headed): boolean {
  const length = Number(request.headers['content-length'] ?? 0);
  return length > 0 || request.headers['transfer-encoding'] !== undefined;
}

/**
 * Whether a browser says the request comes from a page of another site: Fetch Metadata
 * (`Sec-Fetch-Site: cross-site|same-site`), or an `Origin` that is neither this server's public
 * one (PUBLIC_URL) nor the host the request was sent to (`null`, from a sandboxed or opaque page,
 * included). Clients that are not browsers send neither, and pass.
 */
export function crossSiteRequest(request: Headed, publicOrigin: string | undefined): boolean {
  if (fromAnotherSite(request)) return true;
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  if (publicOrigin !== undefined && origin === publicOrigin) return false;
  try {
    const from = new URL(origin);
    return from.host !== new URL(`${from.protocol}//${request.host}`).host;
  } catch {
    return true;
  }
}

/**
 * What the route's declaration refuses of the request, before its body is read: a texting route
 * (`sendsText`) from another site is 403; a body of another media type than the declared one
 * (`consumes`, else JSON) is 415, so a form post, `text/plain` or multipart never reaches a JSON
 * route, nor JSON a form route.
 */
export function routeRefusal(route: RouteDeclaration, request: Headed, publicOrigin: string | undefined): DomainError | undefined {
  if (route.sendsText && crossSiteRequest(request, publicOrigin)) return DomainError.forbidden(CROSS_SITE_REFUSED);
  const expected = bodyMediaType(route);
  if (expected === undefined) return undefined;
  const given = mediaTypeOf(request.headers['content-type']);
  if ((given !== undefined || hasBody(request)) && given !== expected) {
    return new DomainError('unsupported_media_type', unsupportedMediaType(expected));
  }
  return undefined;
}

/**
 * Applies each declared route's rules in one place (an onRequest hook, before any body is read), so
 * a route gets them by its declaration alone: a new route that texts says `sendsText` and is
 * protected; a route with a body takes only its media type.
 */
export function registerRoutePolicy(fastify: FastifyInstance, options: { publicUrl: string | undefined; logger: AppLogger }): void {
  const publicOrigin = options.publicUrl ? new URL(options.publicUrl).origin : undefined;
  fastify.addHook('onRequest', (request, reply, done) => {
    const route = declaredRouteOf(request);
    const refusal = route && routeRefusal(route, request, publicOrigin);
    if (!refusal) return done();
    sendFailure(request, reply, refusal, options.logger);
  });
}
