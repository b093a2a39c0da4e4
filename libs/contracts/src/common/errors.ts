import { z } from 'zod';

/** Machine-readable error codes. The HTTP status travels beside them. */
export const ERROR_CODES = [
  'bad_request',
  'validation_failed',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'unavailable',
  'timeout',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const STATUS_BY_CODE: Readonly<Record<ErrorCode, number>> = {
  bad_request: 400,
  validation_failed: 422,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  unavailable: 503,
  timeout: 504,
  internal: 500,
};

/** The error every RPC answers with; the gateway turns it into an HTTP status and `{detail}`. */
export const RpcErrorSchema = z.object({
  status: z.number().int().min(400).max(599),
  detail: z.string(),
  code: z.enum(ERROR_CODES).optional(),
  /** For a 503, 504 or 429: seconds to wait before trying again (the gateway sends it as `Retry-After`). */
  retry_after: z.number().int().min(0).max(86_400).optional(),
});
export type RpcErrorShape = z.infer<typeof RpcErrorSchema>;

/** The body of every failed HTTP answer. The web client shows `detail`, else `API Error: {status}`. */
export const ErrorBodySchema = z.object({ detail: z.string() });
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** Turns a zod failure into one readable sentence, e.g. `content: Too small (expected >= 1 character)`. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path.map(String).join('.');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}
