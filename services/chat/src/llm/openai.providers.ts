import type OpenAI from 'openai';
import { LlmError, MODEL_FAILED } from './llm-error';
import {
  documentText,
  type LlmEvent,
  type LlmMessageTurn,
  type LlmProvider,
  type LlmRequest,
  type LlmToolCall,
  type LlmTurn,
  type ProviderDescriptor,
} from './llm-provider';
import { openAiClient, openAiComplete, openAiStream } from './openai-client';

/** A turn for the Responses API: a message, the model's function calls (after what it wrote), or a call's output. */
function responsesInput(turn: LlmTurn): OpenAI.Responses.ResponseInputItem[] {
  if (turn.role === 'tool_calls')
    return [
      ...(turn.content ? [{ role: 'assistant' as const, content: turn.content }] : []),
      ...turn.calls.map((call) => ({ type: 'function_call' as const, call_id: call.id, name: call.name, arguments: call.arguments })),
    ];
  if (turn.role === 'tool_result') return [{ type: 'function_call_output', call_id: turn.callId, output: turn.output }];
  return [responsesMessage(turn) as OpenAI.Responses.ResponseInputItem];
}

/** A message for the Responses API: plain text, or parts (documents, the text, images). */
function responsesMessage(turn: LlmMessageTurn) {
  if (!turn.attachments?.length || turn.role !== 'user') return { role: turn.role, content: turn.content };
  const documents = turn.attachments.filter((a) => a.kind === 'text').map((a) => ({ type: 'input_text' as const, text: documentText(a) }));
  const images = turn.attachments
    .filter((a) => a.kind === 'image')
    .map((a) => ({ type: 'input_image' as const, image_url: a.dataUrl, detail: 'auto' as const }));
  return { role: 'user' as const, content: [...documents, { type: 'input_text' as const, text: turn.content }, ...images] };
}

/** A turn for Chat Completions: a message, the assistant's tool calls, or a tool's result. */
function chatMessage(turn: LlmTurn): OpenAI.Chat.ChatCompletionMessageParam {
  if (turn.role === 'tool_calls')
    return {
      role: 'assistant',
      content: turn.content || null,
      tool_calls: turn.calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })),
    };
  if (turn.role === 'tool_result') return { role: 'tool', tool_call_id: turn.callId, content: turn.output };
  return chatText(turn);
}

/** A message for Chat Completions: plain text, or parts (documents, the text, images). */
function chatText(turn: LlmMessageTurn): OpenAI.Chat.ChatCompletionMessageParam {
  if (!turn.attachments?.length || turn.role !== 'user') return { role: turn.role, content: turn.content };
  const documents = turn.attachments.filter((a) => a.kind === 'text').map((a) => ({ type: 'text' as const, text: documentText(a) }));
  const images = turn.attachments
    .filter((a) => a.kind === 'image')
    .map((a) => ({ type: 'image_url' as const, image_url: { url: a.dataUrl } }));
  return { role: 'user', content: [...documents, { type: 'text' as const, text: turn.content }, ...images] };
}

/** OpenAI's Responses API: streamed text, reasoning summaries, web search and image generation. */
export class OpenAiResponsesProvider implements LlmProvider {
  private readonly openai: OpenAI;

  constructor(apiKey: string | undefined, baseURL?: string) {
    this.openai = openAiClient(apiKey, baseURL);
  }

  describe(): ProviderDescriptor {
    return { id: 'openai', label: 'OpenAI', offline: false };
  }

  stream(request: LlmRequest): AsyncIterable<LlmEvent> {
    const tools: OpenAI.Responses.Tool[] = [];
    if (request.webSearch) tools.push({ type: 'web_search' } as OpenAI.Responses.Tool);
    if (request.imageGeneration) tools.push({ type: 'image_generation', partial_images: 3 } as OpenAI.Responses.Tool);
    for (const tool of request.tools ?? [])
      tools.push({ type: 'function', name: tool.name, description: tool.description, parameters: tool.parameters, strict: false });
    const open = () =>
      this.openai.responses.create(
        {
          model: request.model,
          instructions: request.system,
          input: request.turns.flatMap(responsesInput),
          stream: true,
          ...(request.reasoning ? { reasoning: { summary: 'auto' as const } } : {}),
          ...(tools.length ? { tools } : {}),
        },
        { signal: request.signal },
      );
    return openAiStream(request, open, (stream) => this.events(stream));
  }

  private async *events(stream: AsyncIterable<OpenAI.Responses.ResponseStreamEvent>): AsyncIterable<LlmEvent> {
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
          if (event.item.type === 'image_generation_call' && event.item.result)
            yield { type: 'image', base64: event.item.result, mimeType: 'image/png' };
          if (event.item.type === 'function_call')
            yield { type: 'tool_call', call: { id: event.item.call_id, name: event.item.name, arguments: event.item.arguments } };
          break;
        case 'response.completed':
          yield { type: 'meta', requestId: null, model: event.response.model };
          break;
        // (An `error` event never arrives here: the SDK throws it, as an APIError.)
        case 'response.failed':
          throw new LlmError(
            'unavailable',
            event.response.error?.message ? `The model failed: ${event.response.error.message}` : MODEL_FAILED,
          );
        default:
          break;
      }
    }
  }

  complete(request: { model: string; system: string; prompt: string; signal: AbortSignal }): Promise<string> {
    return openAiComplete(async () => {
      const response = await this.openai.responses.create(
        { model: request.model, instructions: request.system, input: request.prompt },
        { signal: request.signal },
      );
      return response.output_text;
    });
  }
}

/** Any OpenAI-compatible server through Chat Completions (Ollama, vLLM, llama.cpp server...). */
export class OpenAiCompatibleProvider implements LlmProvider {
  private readonly openai: OpenAI;

  constructor(apiKey: string | undefined, baseURL: string | undefined) {
    this.openai = openAiClient(apiKey, baseURL);
  }

  describe(): ProviderDescriptor {
    return { id: 'openai-compatible', label: 'OpenAI-compatible server', offline: false };
  }

  stream(request: LlmRequest): AsyncIterable<LlmEvent> {
    const tools = (request.tools ?? []).map((tool) => ({
      type: 'function' as const,
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
    const open = () =>
      this.openai.chat.completions.create(
        {
          model: request.model,
          messages: [{ role: 'system', content: request.system }, ...request.turns.map(chatMessage)],
          stream: true,
          ...(tools.length ? { tools } : {}),
        },
        { signal: request.signal },
      );
    return openAiStream(request, open, (stream) => this.events(stream));
  }

  private async *events(stream: AsyncIterable<OpenAI.Chat.ChatCompletionChunk>): AsyncIterable<LlmEvent> {
    // A tool call comes in pieces (its id and name first, then its arguments), by index.
    const calls = new Map<number, LlmToolCall>();
    for await (const chunk of stream) {
      for (const [position, piece] of (chunk.choices[0]?.delta?.tool_calls ?? []).entries()) {
        const index = piece.index ?? position;
        const call = calls.get(index) ?? calls.set(index, { id: '', name: '', arguments: '' }).get(index)!;
        if (piece.id) call.id = piece.id;
        if (piece.function?.name) call.name += piece.function.name;
        if (piece.function?.arguments) call.arguments += piece.function.arguments;
      }
      // Servers put reasoning in a field of their own: llama.cpp and DeepSeek `reasoning_content`, vLLM `reasoning`.
      const delta = chunk.choices[0]?.delta as
        { content?: string | null; reasoning_content?: string | null; reasoning?: string | null } | undefined;
      const reasoning = delta?.reasoning_content ?? delta?.reasoning;
      if (reasoning) yield { type: 'reasoning', delta: reasoning };
      if (delta?.content) yield { type: 'text', delta: delta.content };
      if (chunk.model) yield { type: 'meta', requestId: null, model: chunk.model };
    }
    for (const [index, call] of [...calls.entries()].sort(([a], [b]) => a - b))
      if (call.name) yield { type: 'tool_call', call: { ...call, id: call.id || `call_${index}` } };
  }

  complete(request: { model: string; system: string; prompt: string; signal: AbortSignal }): Promise<string> {
    return openAiComplete(async () => {
      const completion = await this.openai.chat.completions.create(
        {
          model: request.model,
          messages: [
            { role: 'system', content: request.system },
            { role: 'user', content: request.prompt },
          ],
        },
        { signal: request.signal },
      );
      return completion.choices[0]?.message?.content ?? '';
    });
  }
}
