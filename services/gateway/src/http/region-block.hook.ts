import { API_PREFIX } from '@app/contracts/gateway';
import { DomainError, type AppLogger } from '@app/platform';
import type { FastifyInstance } from 'fastify';
import { sendFailure } from './http-errors';

export const REGION_BLOCKED_TEXT = 'The assistant is not available in your region.';

/**
 * The API refuses requests from BLOCKED_COUNTRIES (451), by the country a trusted proxy names in
 * REGION_HEADER (a CDN's country header); without that header nothing is blocked here (the auth
 * service still refuses blocked numbers).
 */
export function registerRegionBlock(
  fastify: FastifyInstance,
  options: { header: string | undefined; blocked: readonly string[]; logger: AppLogger },
): void {
  const { header, logger } = options;
  if (!header) return;
  const blocked = new Set(options.blocked);
  fastify.addHook('onRequest', (request, reply, done) => {
    if (!request.url.startsWith(`${API_PREFIX}/`)) return done();
    const country = request.headers[header];
    if (typeof country !== 'string' || !blocked.has(country.trim().toUpperCase())) return done();
    sendFailure(request, reply, new DomainError('forbidden', REGION_BLOCKED_TEXT, 451), logger);
  });
}
