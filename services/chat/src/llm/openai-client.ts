import OpenAI from 'openai';
import { LlmError, MODEL_FAILED } from './llm-error';
import type { LlmEvent, LlmRequest } from './llm-provider';

/** The SDK client both OpenAI providers use: one retry, and no timeout of its own (the reply has its own). */
export function openAiClient(apiKey: string | undefined, baseURL: string | undefined): OpenAI {
  return new OpenAI({ apiKey: apiKey ?? 'not-needed', baseURL, maxRetries: 1, timeout: 600_000 });
}

/** The SDK's failures as LlmErrors, in sentences for the user (the SDK's error stays as the cause). */
export function toLlmError(error: unknown): LlmError {
  if (error instanceof LlmError) return error;
  const because = { cause: error };
  if (error instanceof OpenAI.APIConnectionTimeoutError) return new LlmError('timeout', 'The model took too long to answer.', because);
  if (error instanceof OpenAI.RateLimitError)
    return new LlmError('rate_limited', 'The model is busy right now. Please try again in a moment.', because);
  if (error instanceof OpenAI.AuthenticationError)
    return new LlmError('refused', 'The model refused our credentials. Please tell the operator.', because);
  if (error instanceof OpenAI.APIConnectionError)
    return new LlmError('unavailable', 'The model could not be reached. Please try again.', because);
  if (error instanceof OpenAI.APIError) {
    const { status } = error;
    const kind = status !== undefined && status >= 400 && status < 500 ? 'refused' : 'unavailable';
    return new LlmError(kind, status ? `The model failed to answer (${status}). Please try again.` : MODEL_FAILED, because);
  }
  // The stream carried something that is not JSON.
  if (error instanceof SyntaxError) return new LlmError('bad_output', MODEL_FAILED, because);
  return new LlmError('unavailable', MODEL_FAILED, because);
}

/** What `.withResponse()` of an SDK call gives. */
type Opened<S> = { withResponse(): Promise<{ data: S; request_id: string | null }> };

/**
 * One streamed call, for either API: opens it, says which request it is, yields what `read` makes
 * of the stream, and turns every failure into an LlmError; once `request.signal` is aborted it
 * ends quietly.
 */
export async function* openAiStream<S>(
  request: LlmRequest,
  open: () => Opened<S>,
  read: (stream: S) => AsyncIterable<LlmEvent>,
): AsyncIterable<LlmEvent> {
  try {
    const { data, request_id } = await open().withResponse();
    yield { type: 'meta', requestId: request_id, model: request.model };
    yield* read(data);
  } catch (error) {
    if (request.signal.aborted) return;
    throw toLlmError(error);
  }
}

/** One non-streamed call, its failures as LlmErrors. */
export async function openAiComplete(call: () => Promise<string>): Promise<string> {
  try {
    return await call();
  } catch (error) {
    throw toLlmError(error);
  }
}
