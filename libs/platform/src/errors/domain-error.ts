import { STATUS_BY_CODE, type ErrorCode, type RpcErrorShape } from '@app/contracts';

/**
 * What a service throws when a request cannot be served (not found, forbidden, conflict...).
 * The `detail` is shown to the user as it is, so it must be a sentence meant for them.
 */
export class DomainError extends Error {
  readonly status: number;
  /** For a 503: when to try again (the gateway sends it as `Retry-After`). */
  readonly retryAfterSeconds?: number;

  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    status?: number,
    options: { retryAfterSeconds?: number } = {},
  ) {
    super(detail);
    this.name = 'DomainError';
    this.status = status ?? STATUS_BY_CODE[code];
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  toShape(): RpcErrorShape {
    return { status: this.status, detail: this.detail, code: this.code };
  }

  static notFound(detail = 'Not found'): DomainError {
    return new DomainError('not_found', detail);
  }
  static forbidden(detail = 'Forbidden'): DomainError {
    return new DomainError('forbidden', detail);
  }
  static unauthorized(detail = 'Not authenticated'): DomainError {
    return new DomainError('unauthorized', detail);
  }
  static badRequest(detail: string): DomainError {
    return new DomainError('bad_request', detail);
  }
  static conflict(detail: string): DomainError {
    return new DomainError('conflict', detail);
  }
  /** A dependency is away (database, cache, bus) or the service is restarting: 503, try again soon. */
  static unavailable(detail: string, retryAfterSeconds = DEFAULT_RETRY_AFTER_SECONDS): DomainError {
    return new DomainError('unavailable', detail, 503, { retryAfterSeconds });
  }
}

/**
 * What a caller receives when an RPC failed: the remote service's error, or the transport's
 * own (`unavailable` 503 when nobody answers the subject, `timeout` 504).
 */
export class RpcCallError extends Error {
  readonly retryAfterSeconds?: number;

  constructor(
    readonly shape: RpcErrorShape,
    readonly subject: string,
    options: { retryAfterSeconds?: number } = {},
  ) {
    super(`${subject}: ${shape.status} ${shape.detail}`);
    this.name = 'RpcCallError';
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** What a 503 says to wait when nothing more precise is known. */
export const DEFAULT_RETRY_AFTER_SECONDS = 5;

/**
 * The `Retry-After` (seconds) of a failure answered with `status`: the error's own hint, else a
 * default for every 503 (an outage or a restart: the client should come back, not give up).
 */
export function retryAfterOf(error: unknown, status: number): number | undefined {
  const hint = error instanceof DomainError || error instanceof RpcCallError ? error.retryAfterSeconds : undefined;
  if (hint !== undefined) return hint;
  return status === 503 ? DEFAULT_RETRY_AFTER_SECONDS : undefined;
}
