import { STATUS_BY_CODE, type ErrorCode, type RpcErrorShape } from '@app/contracts';

/**
 * What a service throws when a request cannot be served (not found, forbidden, conflict...).
 * The `detail` is shown to the user as it is, so it must be a sentence meant for them.
 */
export class DomainError extends Error {
  readonly status: number;
  /** For a 503 or a 429: when to try again (the gateway sends it as `Retry-After`). */
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
    return {
      status: this.status,
      detail: this.detail,
      code: this.code,
      ...(this.retryAfterSeconds !== undefined ? { retry_after: this.retryAfterSeconds } : {}),
    };
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
    // The transport's own hint, else the one the remote service gave with its error.
    this.retryAfterSeconds = options.retryAfterSeconds ?? shape.retry_after;
  }
}

/** What a 503 or a 504 says to wait when nothing more precise is known. */
export const DEFAULT_RETRY_AFTER_SECONDS = 5;
/** What a 429 says to wait when the limit that refused did not say. */
export const DEFAULT_RATE_LIMIT_RETRY_AFTER_SECONDS = 60;

/**
 * The `Retry-After` (seconds) of a failure answered with `status`: the error's own hint, else a
 * default for every 503 and 504 (an outage, a restart, a service too slow: the client should come
 * back, not give up) and every 429.
 */
export function retryAfterOf(error: unknown, status: number): number | undefined {
  const hint = error instanceof DomainError || error instanceof RpcCallError ? error.retryAfterSeconds : undefined;
  if (hint !== undefined) return hint;
  if (status === 503 || status === 504) return DEFAULT_RETRY_AFTER_SECONDS;
  return status === 429 ? DEFAULT_RATE_LIMIT_RETRY_AFTER_SECONDS : undefined;
}

/** Seconds from `now` to the end of its window of `windowMs` (windows counted from the epoch), at least 1. */
export function secondsToWindowEnd(windowMs: number, now = Date.now()): number {
  return Math.max(1, Math.ceil((windowMs - (now % windowMs)) / 1000));
}
