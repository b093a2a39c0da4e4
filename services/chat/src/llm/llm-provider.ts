/** A file shown to the model with a turn: an image, or the text of a document. */
export type LlmAttachment =
  { kind: 'image'; filename: string; dataUrl: string } | { kind: 'text'; filename: string; text: string; truncated: boolean };

/** A tool offered to the model: its name, what it does, and its arguments' JSON Schema. */
export interface LlmToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** A tool the model asked for: its call id (the provider's), the tool's name, the arguments as the model wrote them (JSON). */
export interface LlmToolCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * One turn of the conversation as the model sees it: a message, the model's calls to tools (with
 * what it wrote before them), or a tool's result given back.
 */
export type LlmTurn =
  | { role: 'user' | 'assistant'; content: string; attachments?: LlmAttachment[] }
  | { role: 'tool_calls'; content: string; calls: LlmToolCall[] }
  | { role: 'tool_result'; callId: string; name: string; output: string };

/** The turns that are messages (what the user and the assistant said). */
export type LlmMessageTurn = Extract<LlmTurn, { role: 'user' | 'assistant' }>;

/** A document attachment as words the model reads before the message. */
export function documentText(attachment: Extract<LlmAttachment, { kind: 'text' }>): string {
  return `<file name="${attachment.filename.replace(/"/g, "'")}"${attachment.truncated ? ' truncated="true"' : ''}>\n${attachment.text}\n</file>`;
}

export interface LlmRequest {
  model: string;
  /** Instructions (persona, the user's memories). */
  system: string;
  turns: LlmTurn[];
  /** Ask for reasoning summaries (reasoning models). */
  reasoning: boolean;
  webSearch: boolean;
  imageGeneration: boolean;
  /** Tools the model may call (native tool calling); none when absent. */
  tools?: LlmToolSpec[];
  signal: AbortSignal;
}

/** What a provider streams back, whatever its wire format. */
export type LlmEvent =
  | { type: 'text'; delta: string }
  | { type: 'reasoning'; delta: string }
  | { type: 'searching' }
  | { type: 'image_partial'; index: number; base64: string; mimeType: string }
  | { type: 'image'; base64: string; mimeType: string }
  | { type: 'meta'; requestId: string | null; model: string | null }
  /** The model asks for a tool; the reply goes on once its result is given back. */
  | { type: 'tool_call'; call: LlmToolCall };

/** What the product says about a provider (stored on each reply, shown by the client). */
export interface ProviderDescriptor {
  /** Stored on each reply as `provider`. */
  id: 'openai' | 'openai-compatible' | 'offline';
  /** Its name for people. */
  label: string;
  /** A stand-in that answers without a language model: the client labels its replies as such. */
  offline: boolean;
  /** The one model it serves, when there is nothing to choose. */
  fixedModel?: string;
}

/**
 * A language model behind one interface. A provider fails only with an LlmError (its own failures
 * mapped to the neutral kinds), and once the request's signal is aborted it ends its stream
 * quietly: whoever aborted knows why.
 */
export interface LlmProvider {
  describe(): ProviderDescriptor;
  stream(request: LlmRequest): AsyncIterable<LlmEvent>;
  /** A short, non-streamed completion (titles). */
  complete(request: { model: string; system: string; prompt: string; signal: AbortSignal }): Promise<string>;
}

export const LLM_PROVIDER = Symbol('LLM_PROVIDER');
