import OpenAI from 'openai';
import type { LlmEvent, LlmProvider, LlmRequest, LlmTurn } from './llm-provider';
import { documentText, LlmError } from './llm-provider';

/** A turn for the Responses API: plain text, or parts (documents, the text, images). */
function responsesInput(turn: LlmTurn) {
  if (!turn.attachments?.length || turn.role !== 'user') return { role: turn.role, content: turn.content };
  const documents = turn.attachments.filter((a) => a.kind === 'text').map((a) => ({ type: 'input_text' as const, text: documentText(a) }));
  const images = turn.attachments.filter((a) => a.kind === 'image').map((a) => ({ type: 'input_image' as const, image_url: a.dataUrl, detail: 'auto' as const }));
  return { role: 'user' as const, content: [...documents, { type: 'input_text' as const, text: turn.content }, ...images] };
}

/** A turn for Chat Completions: plain text, or parts (documents, the text, images). */
function chatMessage(turn: LlmTurn): OpenAI.Chat.ChatCompletionMessageParam {
  if (!turn.attachments?.length || turn.role !== 'user') return { role: turn.role, content: turn.content };
  const documents = turn.attachments.filter((a) => a.kind === 'text').map((a) => ({ type: 'text' as const, text: documentText(a) }));
  const images = turn.attachments.filter((a) => a.kind === 'image').map((a) => ({ type: 'image_url' as const, image_url: { url: a.dataUrl } }));
  return { role: 'user', content: [...documents, { type: 'text' as const, text: turn.content }, ...images] };
}

/** Turns the SDK's failures into sentences for the user (the details stay in the log). */
export function describeProviderError(error: unknown): LlmError {
  if (error instanceof LlmError) return error;
  if (error instanceof OpenAI.APIUserAbortError) return new LlmError('The reply was stopped.', 'stopped');
  if (error instanceof OpenAI.APIConnectionTimeoutError) return new LlmError('The model took too long to answer.', 'timeout');
  if (error instanceof OpenAI.RateLimitError) return new LlmError('The model is busy right now. Please try again in a moment.', 'provider');
  if (error instanceof OpenAI.AuthenticationError) return new LlmError('The model refused our credentials. Please tell the operator.', 'provider');
  if (error instanceof OpenAI.APIConnectionError) return new LlmError('The model could not be reached. Please try again.', 'provider');
  if (error instanceof OpenAI.APIError) return new LlmError(`The model failed to answer${error.status ? ` (${error.status})` : ''}. Please try again.`, 'provider');
  return new LlmError('The model failed to answer. Please try again.', 'provider');
}

function client(apiKey: string | undefined, baseURL: string | undefined): OpenAI {
  return new OpenAI({ apiKey: apiKey ?? 'not-needed', baseURL, maxRetries: 1, timeout: 600_000 });
}

/** OpenAI's Responses API: streamed text, reasoning summaries, web search and image generation. */
export class OpenAiResponsesProvider implements LlmProvider {
  readonly name = 'openai' as const;
  private readonly openai: OpenAI;

  constructor(apiKey: string | undefined, baseURL?: string) {
    this.openai = client(apiKey, baseURL);
  }

  async *stream(request: LlmRequest): AsyncIterable<LlmEvent> {
    const tools: OpenAI.Responses.Tool[] = [];
    if (request.webSearch) tools.push({ type: 'web_search' } as OpenAI.Responses.Tool);
    if (request.imageGeneration) tools.push({ type: 'image_generation', partial_images: 3 } as OpenAI.Responses.Tool);
    let stream;
    try {
      const { data, request_id } = await this.openai.responses
        .create(
          {
            model: request.model,
            instructions: request.system,
            input: request.turns.map(responsesInput) as OpenAI.Responses.ResponseInput,
            stream: true,
            ...(request.reasoning ? { reasoning: { summary: 'auto' as const } } : {}),
            ...(tools.length ? { tools } : {}),
          },
          { signal: request.signal },
        )
        .withResponse();
      stream = data;
      yield { type: 'meta', requestId: request_id, model: request.model };
    } catch (error) {
      throw describeProviderError(error);
    }
    try {
      for await (const event of stream) {
        switch (event.type) {
          case 'response.output_text.delta':
            yield { type: 'text', delta: event.delta };
            break;
          case 'response.reasoning_summary_text.delta':
            yield { type: 'reasoning', delta: event.delta };
            break;
          case 'response.web_search_call.in_progress':
          case 'response.web_search_call.searching':
            yield { type: 'searching' };
            break;
          case 'response.image_generation_call.partial_image':
            yield { type: 'image_partial', index: event.partial_image_index, base64: event.partial_image_b64, mimeType: 'image/png' };
            break;
          case 'response.output_item.done':
            if (event.item.type === 'image_generation_call' && event.item.result) {
              yield { type: 'image', base64: event.item.result, mimeType: 'image/png' };
            }
            break;
          case 'response.completed':
            yield { type: 'meta', requestId: null, model: event.response.model };
            break;
          case 'response.failed':
            throw new LlmError(event.response.error?.message ? `The model failed: ${event.response.error.message}` : 'The model failed to answer. Please try again.', 'provider');
          case 'error':
            throw new LlmError(`The model failed: ${event.message}`, 'provider');
          default:
            break;
        }
      }
    } catch (error) {
      throw describeProviderError(error);
    }
  }

  async complete(request: { model: string; system: string; prompt: string; signal: AbortSignal }): Promise<string> {
    const response = await this.openai.responses.create(
      { model: request.model, instructions: request.system, input: request.prompt },
      { signal: request.signal },
    );
    return response.output_text;
  }
}

/** Any OpenAI-compatible server through Chat Completions (Ollama, vLLM, llama.cpp server...). */
export class OpenAiCompatibleProvider implements LlmProvider {
  readonly name = 'openai-compatible' as const;
  private readonly openai: OpenAI;

  constructor(apiKey: string | undefined, baseURL: string | undefined) {
    this.openai = client(apiKey, baseURL);
  }

  async *stream(request: LlmRequest): AsyncIterable<LlmEvent> {
    let stream;
    try {
      const { data, request_id } = await this.openai.chat.completions
        .create(
          {
            model: request.model,
            messages: [{ role: 'system', content: request.system }, ...request.turns.map(chatMessage)],
            stream: true,
          },
          { signal: request.signal },
        )
        .withResponse();
      stream = data;
      yield { type: 'meta', requestId: request_id, model: request.model };
    } catch (error) {
      throw describeProviderError(error);
    }
    try {
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta as { content?: string | null; reasoning_content?: string | null; reasoning?: string | null } | undefined;
        const reasoning = delta?.reasoning_content ?? delta?.reasoning;
        if (reasoning) yield { type: 'reasoning', delta: reasoning };
        if (delta?.content) yield { type: 'text', delta: delta.content };
        if (chunk.model) yield { type: 'meta', requestId: null, model: chunk.model };
      }
    } catch (error) {
      throw describeProviderError(error);
    }
  }

  async complete(request: { model: string; system: string; prompt: string; signal: AbortSignal }): Promise<string> {
    const completion = await this.openai.chat.completions.create(
      { model: request.model, messages: [{ role: 'system', content: request.system }, { role: 'user', content: request.prompt }] },
      { signal: request.signal },
    );
    return completion.choices[0]?.message?.content ?? '';
  }
}
