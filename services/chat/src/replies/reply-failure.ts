import { LlmError } from '../llm/llm-error';

/** The reply was ended on purpose: the user's stop, or a shutdown at the end of its grace period. */
export class ReplyStopped extends Error {
  constructor(readonly detail = 'The reply was stopped.') {
    super(detail);
    this.name = 'ReplyStopped';
  }
}

/** The database could not be read or written: the storage failed, not the model. */
export class StorageFailure extends Error {
  constructor(
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(detail, options);
    this.name = 'StorageFailure';
  }
}

export const SHUTDOWN_DETAIL = 'The reply was cut short because the service restarted. Regenerate to try again.';
export const HISTORY_UNREADABLE = 'Your conversation could not be read, so the model was not asked. Please try again.';
export const REPLY_NOT_SAVED = 'The reply could not be saved. Please try again.';
const UNEXPECTED = 'Something went wrong while writing the reply. Please try again.';

/**
 * Why a reply ended early, in words for the user (`detail`): the model failed (`model`), it was
 * stopped (`stopped`), the database failed (`storage`), or a fault of ours (`internal`).
 */
export interface ReplyFailure {
  kind: 'model' | 'stopped' | 'storage' | 'internal';
  detail: string;
  error: unknown;
}

/**
 * What ended a reply early: once its `signal` is aborted, the reason it was aborted for (the user's
 * stop, a timeout, the shutdown), whatever a step threw meanwhile; otherwise what was thrown.
 */
export function failureOf(error: unknown, signal?: AbortSignal): ReplyFailure {
  const cause: unknown = signal?.aborted ? signal.reason : error;
  if (cause instanceof LlmError) return { kind: 'model', detail: cause.detail, error: cause.cause ?? cause };
  if (cause instanceof ReplyStopped) return { kind: 'stopped', detail: cause.detail, error: cause };
  if (signal?.aborted) return { kind: 'stopped', detail: new ReplyStopped().detail, error: cause };
  if (cause instanceof StorageFailure) return { kind: 'storage', detail: cause.detail, error: cause.cause ?? cause };
  return { kind: 'internal', detail: UNEXPECTED, error: cause };
}
