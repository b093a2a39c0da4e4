/**
 * Why the model gave no (or only part of an) answer, whatever the provider: the model service is
 * down or unreachable, it refused the request (credentials, a bad request), it is rate limiting
 * us, it took too long or went silent, or what it sent could not be used.
 */
export type LlmErrorKind = 'unavailable' | 'refused' | 'rate_limited' | 'timeout' | 'bad_output';

/** A model failure, in words for the user (`detail`); the provider's own error is the `cause`. */
export class LlmError extends Error {
  constructor(
    readonly kind: LlmErrorKind,
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(detail, options);
    this.name = 'LlmError';
  }
}

/** The sentence for a failure nobody described. */
export const MODEL_FAILED = 'The model failed to answer. Please try again.';
