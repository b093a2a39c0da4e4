import { describeZodError, RpcErrorSchema, type RpcErrorShape } from '@app/contracts';
import { ZodError } from 'zod';
import { DomainError, RpcCallError } from './domain-error';
import { INFRASTRUCTURE_UNAVAILABLE, isInfrastructureUnavailable, isPoolExhausted } from './infrastructure';

/**
 * Turns anything a handler threw into the RPC error shape. Domain errors and errors of
 * downstream calls keep their status and text; anything else is an internal error whose
 * details stay in the log, never in the answer.
 */
export function toRpcError(error: unknown, requestId: string): { shape: RpcErrorShape; unexpected: boolean } {
  if (error instanceof DomainError) return { shape: error.toShape(), unexpected: false };
  if (error instanceof RpcCallError) return { shape: error.shape, unexpected: false };
  if (error instanceof ZodError) {
    return { shape: { status: 400, detail: describeZodError(error), code: 'bad_request' }, unexpected: false };
  }
  const asShape = RpcErrorSchema.safeParse(error);
  if (asShape.success) return { shape: asShape.data, unexpected: false };
  // The database pool had no connection to give in time (a burst): busy, not broken. Logged all the same.
  if (isPoolExhausted(error)) {
    return { shape: { status: 503, detail: 'The service is busy. Try again in a moment.', code: 'unavailable' }, unexpected: true };
  }
  // The database (or another server) unreachable, restarting, failing over: an outage, not a bug. Logged all the same.
  if (isInfrastructureUnavailable(error)) return { shape: INFRASTRUCTURE_UNAVAILABLE, unexpected: true };
  return {
    shape: { status: 500, detail: `Internal error (request ${requestId})`, code: 'internal' },
    unexpected: true,
  };
}
