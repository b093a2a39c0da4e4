/** A file shown to the model with a turn: an image, or the text of a document. */
export type LlmAttachment =
  | { kind: 'image'; filename: string; dataUrl: string }
  | { kind: 'text'; filename: string; text: string; truncated: boolean };

/** One turn of the conversation as the model sees it. */
export interface LlmTurn {
  role: 'user' | 'assistant';
  content: string;
  attachments?: LlmAttachment[];
}

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
  signal: AbortSignal;
}

/** What a provider streams back, whatever its wire format. */
export type LlmEvent =
  | { type: 'text'; delta: string }
  | { type: 'reasoning'; delta: string }
  | { type: 'searching' }
  | { type: 'image_partial'; index: number; base64: string; mimeType: string }
  | { type: 'image'; base64: string; mimeType: string }
  | { type: 'meta'; requestId: string | null; model: string | null };

export interface LlmProvider {
  readonly name: 'openai' | 'openai-compatible' | 'offline';
  stream(request: LlmRequest): AsyncIterable<LlmEvent>;
  /** A short, non-streamed completion (titles). */
  complete(request: { model: string; system: string; prompt: string; signal: AbortSignal }): Promise<string>;
}

/** A provider failure worth telling the user about (the text is meant for them). */
export class LlmError extends Error {
  constructor(
    message: string,
    readonly kind: 'timeout' | 'provider' | 'stopped',
  ) {
    super(message);
    this.name = 'LlmError';
  }
}

export const LLM_PROVIDER = Symbol('LLM_PROVIDER');
