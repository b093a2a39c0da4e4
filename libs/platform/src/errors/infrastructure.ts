import type { RpcErrorShape } from '@app/contracts';

/** Socket errors of a server that cannot be reached (or was lost mid-query). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'EPIPE',
]);

/**
 * PostgreSQL's own: connection exceptions (class 08), the server shutting down or starting
 * (57P01-57P03), no connection slot left (53300).
 */
const POSTGRES_UNAVAILABLE = /^(08...|57P0[123]|53300)$/;

/** What pg and TypeORM say when the connection is gone or cannot be made. */
const UNAVAILABLE_WORDS =
  /Connection terminated|connection error and is not queryable|terminating connection due to administrator command|the database system is (shutting down|starting up|in recovery mode)|Connection is not established/i;

function codeOf(error: object): string | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Is this a dependency being away (the database unreachable, restarting, failing over or out of
 * connections; any server refusing or dropping the connection) rather than a fault of the request
 * or of the code? Looks through TypeORM's wrapper (`driverError`), `cause` and the AggregateError
 * Node gives when every address of a host refuses.
 */
export function isInfrastructureUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 3) return false;
  const code = codeOf(error);
  if (code && (NETWORK_CODES.has(code) || POSTGRES_UNAVAILABLE.test(code))) return true;
  const message = (error as { message?: unknown }).message;
  if (typeof message === 'string' && UNAVAILABLE_WORDS.test(message)) return true;
  const nested = [
    (error as { driverError?: unknown }).driverError,
    (error as { cause?: unknown }).cause,
    ...((error as { errors?: unknown }).errors instanceof Array ? (error as { errors: unknown[] }).errors : []),
  ];
  return nested.some((inner) => inner !== error && isInfrastructureUnavailable(inner, depth + 1));
}

/** The answer to a request that needed a dependency while it was away (the cause stays in the log). */
export const INFRASTRUCTURE_UNAVAILABLE: RpcErrorShape = {
  status: 503,
  detail: 'The service is temporarily unavailable; please try again shortly',
  code: 'unavailable',
};
