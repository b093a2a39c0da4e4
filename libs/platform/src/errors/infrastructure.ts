import type { RpcErrorShape } from '@app/contracts';
import { QueryFailedError, QueryRunnerAlreadyReleasedError, QueryRunnerProviderAlreadyReleasedError } from 'typeorm';

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

/** A PostgreSQL error code (SQLSTATE): five digits or upper-case letters, its class the first two. */
const SQLSTATE = /^[0-9A-Z]{5}$/;

/**
 * SQLSTATEs that say the server cannot serve this connection now, whatever the statement: class 08
 * (connection exceptions), 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now
 * (starting up, shutting down, in recovery), 57P05 idle session timeout, 53300 too many connections.
 */
function connectionLost(sqlstate: string): boolean {
  return sqlstate.startsWith('08') || /^57P0[1235]$/.test(sqlstate) || sqlstate === '53300';
}

/**
 * 55000 (object not in prerequisite state) is what a server answers a new connection to a database
 * that does not accept connections now ("database ... is not currently accepting connections": a
 * restore, a failover, an operator's ALLOW_CONNECTIONS false). Met while connecting it is an outage;
 * raised by a statement (a sequence's currval not yet defined...) it is a fault of the code.
 */
const REFUSED_AT_CONNECT = '55000';

function codeOf(error: object): string | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * What the pg driver rejects a query with when it never got the server's answer: the connection
 * ended, timed out or broke ("Connection terminated unexpectedly", "not queryable"). Those are
 * plain `Error`s without a SQLSTATE, whereas every answer of the server carries one; a `TypeError`
 * or the like (a bug in the parameters) is not one of them.
 */
function isDriverConnectionFailure(driverError: unknown): boolean {
  return driverError instanceof Error && driverError.constructor === Error && codeOf(driverError) === undefined;
}

/**
 * Is this a dependency being away (the database unreachable, restarting, failing over, refusing
 * connections or out of them; any server refusing or dropping the connection) rather than a fault
 * of the request or of the code? Decided by codes and types, never by an error's words: the
 * SQLSTATE (class 08, 57P01-57P03, 53300; 55000 only while connecting), Node's socket codes,
 * TypeORM's QueryRunnerAlreadyReleasedError and QueryRunnerProviderAlreadyReleasedError (a
 * transaction whose connection was lost and released under it) and a query the driver failed without any answer of the server. Looks through
 * TypeORM's wrapper (`driverError`), `cause` and the AggregateError Node gives when every address
 * of a host refuses.
 */
export function isInfrastructureUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 3) return false;
  // TypeORM releases a query runner whose connection emitted an error (the server ended it); what
  // the transaction does next on it fails so, by the runner or by its entity manager.
  if (error instanceof QueryRunnerAlreadyReleasedError || error instanceof QueryRunnerProviderAlreadyReleasedError) return true;
  if (error instanceof QueryFailedError) {
    const driverError: unknown = error.driverError;
    if (isDriverConnectionFailure(driverError)) return true;
    const sqlstate = driverError && typeof driverError === 'object' ? codeOf(driverError) : undefined;
    if (sqlstate && SQLSTATE.test(sqlstate)) return connectionLost(sqlstate);
    return isInfrastructureUnavailable(driverError, depth + 1);
  }
  const code = codeOf(error);
  if (code && NETWORK_CODES.has(code)) return true;
  // Not from a statement (TypeORM wraps those above): the driver connecting, or a pool handing out a connection.
  if (code && SQLSTATE.test(code) && (connectionLost(code) || code === REFUSED_AT_CONNECT)) return true;
  const nested = [
    (error as { cause?: unknown }).cause,
    ...((error as { errors?: unknown }).errors instanceof Array ? (error as { errors: unknown[] }).errors : []),
  ];
  return nested.some((inner) => inner !== error && isInfrastructureUnavailable(inner, depth + 1));
}

/** pg-pool's words when no connection frees up (or none can be opened) within connectionTimeoutMillis: its error carries no code. */
const POOL_EXHAUSTED = /timeout exceeded when trying to connect|Connection terminated due to connection timeout/;

/** The database pool had no connection to give in time (a burst): busy, not broken. */
export function isPoolExhausted(error: unknown): boolean {
  return error instanceof Error && POOL_EXHAUSTED.test(error.message);
}

/** SQLSTATEs a statement fails with that the same statement may not meet again: 40001 serialization failure, 40P01 deadlock. */
const RETRYABLE_SQLSTATES = new Set(['40001', '40P01']);

/**
 * Whether a write that failed so is worth trying again as it is: the pool was exhausted, the
 * database was away (isInfrastructureUnavailable: 57P01 admin shutdown, class 08, a lost socket...),
 * or the statement lost a serialization race or a deadlock (40001, 40P01).
 */
export function isTransientDatabaseError(error: unknown): boolean {
  if (isPoolExhausted(error) || isInfrastructureUnavailable(error)) return true;
  const driverError: unknown = error instanceof QueryFailedError ? error.driverError : error;
  const sqlstate = driverError && typeof driverError === 'object' ? codeOf(driverError) : undefined;
  return sqlstate !== undefined && RETRYABLE_SQLSTATES.has(sqlstate);
}

/** The answer to a request that needed a dependency while it was away (the cause stays in the log). */
export const INFRASTRUCTURE_UNAVAILABLE: RpcErrorShape = {
  status: 503,
  detail: 'The service is temporarily unavailable; please try again shortly',
  code: 'unavailable',
};
