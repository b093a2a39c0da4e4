import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { DomainError, RUNTIME_ENV, type RuntimeEnv } from '@app/platform';
import type { FastifyRequest } from 'fastify';

/** Headers a proxy adds: a request that carries one came from somewhere else, whatever the socket says. */
const PROXY_HEADERS = [
  'x-forwarded-for',
  'forwarded',
  'x-real-ip',
  'x-forwarded-host',
  'x-client-ip',
  'true-client-ip',
  'cf-connecting-ip',
];
const LOOPBACK_ADDRESSES = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;
/** The names a page on this machine uses for it (a rebound DNS name is refused: the Host header tells). */
const LOOPBACK_HOSTS = /^(localhost|[a-z0-9-]+\.localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])(:\d{1,5})?$/i;

/**
 * Whether the request comes from this machine itself: the socket's own peer address (never
 * `request.ip`, which TRUST_PROXY would take from a header), no proxy header at all, and a Host
 * naming the loopback (so a page of another site whose name was rebound to 127.0.0.1 is refused).
 */
export function isLoopbackRequest(request: Pick<FastifyRequest, 'headers' | 'raw'>): boolean {
  const peer = request.raw.socket?.remoteAddress ?? '';
  if (!LOOPBACK_ADDRESSES.test(peer)) return false;
  if (PROXY_HEADERS.some((name) => request.headers[name] !== undefined)) return false;
  const host = request.headers.host;
  return typeof host === 'string' && LOOPBACK_HOSTS.test(host);
}

/**
 * The development routes' guard (the SMS inbox, the development phone): served only outside
 * production and only to requests from this machine itself; anything else is 404, as if the route
 * did not exist.
 */
@Injectable()
export class DevOnlyGuard implements CanActivate {
  constructor(@Inject(RUNTIME_ENV) private readonly env: Pick<RuntimeEnv, 'NODE_ENV'>) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (this.env.NODE_ENV === 'production' || !isLoopbackRequest(request)) throw DomainError.notFound('Not Found');
    return true;
  }
}
