import { STATUS_BY_CODE, type ErrorCode, type RpcErrorShape } from '@app/contracts';

/**
 * What a service throws when a request cannot be served (not found, forbidden, conflict...).
 * The `detail` is shown to the user as it is, so it must be a sentence meant for them.
 */
export class DomainError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    status?: number,
  ) {
    super(detail);
    this.name = 'DomainError';
    this.status = status ?? STATUS_BY_CODE[code];
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
}

/**
 * What a caller receives when an RPC failed: the remote service's error, or the transport's
 * own (`unavailable` 503 when nobody answers the subject, `timeout` 504).
 */
export class RpcCallError extends Error {
  constructor(
    readonly shape: RpcErrorShape,
    readonly subject: string,
  ) {
    super(`${subject}: ${shape.status} ${shape.detail}`);
    this.name = 'RpcCallError';
  }
}
