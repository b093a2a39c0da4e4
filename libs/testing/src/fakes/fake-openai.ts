import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { crc32, deflateSync } from 'node:zlib';
import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import type {
  Response as OpenAIResponse,
  ResponseFunctionToolCall,
  ResponseFunctionWebSearch,
  ResponseOutputItem,
  ResponseOutputMessage,
  ResponseOutputText,
  ResponseReasoningItem,
  ResponseStreamEvent,
  ResponseUsage,
} from 'openai/resources/responses/responses';
import { LocalHttpServer, sendJson } from './http-server';
import { wavOf } from '@app/platform';

// ---------------------------------------------------------------------------------------------
// Scripting types

export type FakeOpenAIEndpoint = 'responses' | 'chat.completions' | 'audio.speech' | 'audio.transcriptions';

/** How text is cut into deltas: word by word (a word with its leading whitespace, like tokens) or every N characters. */
export type TextChunking = 'word' | number;

/** A failure the model reports mid-stream. */
export interface FakeOpenAIFailure {
  message: string;
  /** `server_error` by default. */
  code?: string;
  /** The error's `type` in the nested `error` object (`server_error` by default). */
  type?: string;
  /**
   * Responses API only: `response.failed` (default; the SDK yields it as an event with `response.error`)
   * or an `error` event (nested like the live API sends it, so the SDK throws an `APIError`).
   * Chat Completions always sends `data: {"error": {...}}` (the SDK throws an `APIError`).
   * Non-streaming calls answer HTTP 500 with the error JSON.
   */
  as?: 'response.failed' | 'error';
}

/** One step of a scripted Responses API reply, played in order. */
export type ResponseStep =
  /** Output text; consecutive text steps (with only delays between) extend the same message. */
  | { text: string; chunk?: TextChunking; intervalMs?: number }
  /** A reasoning summary part; consecutive reasoning steps are parts of the same reasoning item. */
  | { reasoning: string; chunk?: TextChunking; intervalMs?: number }
  | { webSearch: { query: string; sources?: string[]; durationMs?: number } }
  /** Image generation with `partials` (0..3) partial images before the final 4x4 PNG. */
  | { image: { partials: number; prompt?: string; intervalMs?: number; color?: [number, number, number] } }
  /**
   * The model calls a function tool: its name, its arguments (an object is sent as JSON, a string as
   * written, so a test can send malformed JSON), its call id (generated when absent). The arguments
   * stream in pieces of `chunk` characters (all at once by default).
   */
  | { toolCall: FakeToolCall }
  | { delayMs: number }
  | { fail: FakeOpenAIFailure }
  /** Sends nothing for N ms, then goes on; `true`: until the client goes away or the fake stops. */
  | { stall: true | number }
  /** Destroys the socket (the client sees a connection error, not an API error). */
  | { abort: true };

/** A function call the fake model makes (see ResponseStep). */
export interface FakeToolCall {
  name: string;
  arguments?: unknown;
  callId?: string;
  chunk?: number;
}

/** The arguments of a scripted tool call as the wire carries them. */
function toolArguments(call: FakeToolCall): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {});
}

/** Chat Completions have no built-in tools: text, reasoning (`reasoning_content`), function calls, timing and failures. */
export type ChatStep = Exclude<ResponseStep, { webSearch: unknown } | { image: unknown }>;

/** An HTTP error answered at once: OpenAI's `{error: {message, type, param, code}}` with this status. */
export interface FakeOpenAIHttpError {
  status: number;
  error?: { message?: string; type?: string; code?: string | null; param?: string | null };
  headers?: Record<string, string>;
}

/** How any scripted reply can answer: an HTTP error, extra headers, a late start. */
interface HttpReplyCommon {
  /** 400 and above: answer this HTTP error instead (see FakeOpenAIHttpError). */
  status?: number;
  error?: FakeOpenAIHttpError['error'];
  /** Extra response headers. */
  headers?: Record<string, string>;
  /** Wait before the status line and headers (`Infinity`: never answer), e.g. to test the SDK's own `timeout`. */
  headersDelayMs?: number;
}

interface ReplyCommon extends HttpReplyCommon {
  /** Default chunking and interval between deltas for this reply's text and reasoning steps. */
  chunk?: TextChunking;
  intervalMs?: number;
  /** The model echoed in the answer (the requested one by default). */
  model?: string;
}

export interface ResponsesReply extends ReplyCommon {
  steps?: ResponseStep[];
  /** Overrides the computed usage (input from the request size, output one token per delta). */
  usage?: { input_tokens?: number; output_tokens?: number; reasoning_tokens?: number; cached_tokens?: number };
}

export interface ChatReply extends ReplyCommon {
  steps?: ChatStep[];
  /** The non-standard delta field reasoning goes in: llama.cpp / DeepSeek `reasoning_content` (default) or vLLM's newer `reasoning`. */
  reasoningField?: 'reasoning_content' | 'reasoning';
  finishReason?: 'stop' | 'length' | 'content_filter';
  usage?: { prompt_tokens?: number; completion_tokens?: number; reasoning_tokens?: number };
}

export interface SpeechReply extends HttpReplyCommon {
  /** The exact bytes to answer; generated for the requested format otherwise. */
  audio?: Uint8Array;
  /** Overrides the content type. */
  contentType?: string;
  /** Length of the generated audio (default 50 ms). */
  durationMs?: number;
  /** Body written in this many pieces (default 1) with `intervalMs` between them. */
  chunks?: number;
  intervalMs?: number;
  /** Destroys the socket after this many pieces were written. */
  abortAfterChunks?: number;
}

/** A transcription (`POST /v1/audio/transcriptions`, multipart): its text, or an HTTP error. */
export interface TranscriptionReply extends HttpReplyCommon {
  /** The words heard (default: `Transcribed N bytes of <filename>.`). */
  text?: string;
}

/** The fields of a multipart transcription request, as the fake read them. */
export interface FakeTranscriptionUpload {
  model?: string;
  response_format?: string;
  language?: string;
  filename: string | null;
  /** The Content-Type of the file part. */
  contentType: string | null;
  bytes: Buffer;
}

/** A Responses reply: its text, its steps, or the full reply. */
export type ResponsesReplyInput = string | ResponseStep[] | ResponsesReply;
export type ChatReplyInput = string | ChatStep[] | ChatReply;

export interface FakeOpenAIReplies {
  responses: ResponsesReplyInput;
  'chat.completions': ChatReplyInput;
  'audio.speech': SpeechReply;
  'audio.transcriptions': TranscriptionReply;
}

export type FakeOpenAIDefaultReply<E extends FakeOpenAIEndpoint> = (body: Record<string, unknown>) => FakeOpenAIReplies[E];

export interface FakeOpenAIOptions {
  /** When set, requests must carry `Authorization: Bearer <apiKey>` (401 `invalid_api_key` otherwise). */
  apiKey?: string;
  /** Default chunking of text into deltas ('word'). */
  chunk?: TextChunking;
  /** Default interval between deltas (0 ms). */
  intervalMs?: number;
  /** Replies when an endpoint's queue is empty; by default the text of the last user message is echoed. */
  defaultReplies?: { [E in FakeOpenAIEndpoint]?: FakeOpenAIDefaultReply<E> };
}

/** One request the fake received, whatever it answered. */
export interface FakeOpenAIRequest {
  endpoint: FakeOpenAIEndpoint | null;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (`{}` when there was none or it was not JSON). */
  body: Record<string, unknown>;
  rawBody: string;
  /** Transcriptions only: the multipart fields and the file. */
  upload?: FakeTranscriptionUpload;
  /** Whether the body asked for a stream (`stream: true`, or `stream_format: 'sse'` for speech). */
  stream: boolean;
  /** The `x-request-id` answered. */
  requestId: string;
  /** The HTTP status answered; 0 while not answered yet or when the socket was destroyed first. */
  status: number;
  /** performance.now() when the request body was complete. */
  at: number;
}

/** One server-sent event (or audio piece) written to a client, with when it was written. */
export interface FakeOpenAIEmitted {
  requestId: string;
  endpoint: FakeOpenAIEndpoint;
  /**
   * Responses: the SSE event name (`response.output_text.delta`, ...). Chat Completions: `chunk`,
   * `error` or `[DONE]`. Speech: `audio` (a piece of the body, `data` is `{bytes}`) or the SSE `type`.
   */
  event: string;
  /** The JSON written (a copy), or `'[DONE]'`. */
  data: unknown;
  /** performance.now() (node:perf_hooks) and process.hrtime.bigint() just before the write. */
  at: number;
  hrtime: bigint;
}

// ---------------------------------------------------------------------------------------------
// Helpers also useful to tests

/** The fields and the file of a multipart/form-data body (enough of RFC 7578 for the SDK's uploads); undefined when it is not one. */
export function readMultipart(contentType: string | undefined, bytes: Buffer): FakeTranscriptionUpload | undefined {
  const boundary = /^multipart\/form-data;.*boundary="?([^";]+)"?/i.exec(contentType ?? '')?.[1];
  if (!boundary) return undefined;
  const upload: FakeTranscriptionUpload = { filename: null, contentType: null, bytes: Buffer.alloc(0) };
  const delimiter = Buffer.from(`--${boundary}`);
  let at = bytes.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length + 2; // past the boundary and its CRLF
    const next = bytes.indexOf(delimiter, start);
    if (next < 0) break;
    const part = bytes.subarray(start, next - 2); // without the CRLF before the next boundary
    const split = part.indexOf('\r\n\r\n');
    if (split >= 0) {
      const headers = part.subarray(0, split).toString('utf8');
      const content = part.subarray(split + 4);
      const name = /name="([^"]*)"/i.exec(headers)?.[1];
      const filename = /filename="([^"]*)"/i.exec(headers)?.[1];
      if (filename !== undefined) {
        upload.filename = filename;
        upload.contentType = /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1]?.trim() ?? null;
        upload.bytes = Buffer.from(content);
      } else if (name === 'model' || name === 'response_format' || name === 'language') {
        upload[name] = content.toString('utf8');
      }
    }
    at = next;
  }
  return upload;
}

/** Cuts text into deltas: words with their leading whitespace, like tokens (`'Hello big world!'` gives `['Hello', ' big', ' world!']`), or every N code points. */
export function splitText(text: string, chunk: TextChunking = 'word'): string[] {
  if (text === '') return [];
  if (chunk === 'word') {
    const parts = text.match(/\s*\S+/g);
    if (!parts) return [text];
    const tail = text.slice(parts.join('').length);
    if (tail) parts[parts.length - 1] += tail;
    return parts;
  }
  if (!Number.isInteger(chunk) || chunk < 1) throw new Error(`splitText: chunk must be 'word' or a positive integer, not ${chunk}`);
  const points = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < points.length; i += chunk) out.push(points.slice(i, i + chunk).join(''));
  return out;
}

/** A real PNG (RGB, 8 bits) of one colour, `size` x `size` pixels (4 by default). */
export function fakePng(rgb: [number, number, number] = [220, 40, 40], size = 4): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour RGB
  const row = Buffer.alloc(1 + size * 3); // filter byte 0, then the pixels
  for (let x = 0; x < size; x++) row.set(rgb, 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export const FAKE_SPEECH_SAMPLE_RATE = 24_000;

/** Raw PCM, signed 16-bit little-endian, mono, 24 kHz: a 440 Hz tone (what OpenAI's `pcm` format is). */
export function fakePcm(durationMs = 50): Buffer {
  const samples = Math.round((FAKE_SPEECH_SAMPLE_RATE * durationMs) / 1000);
  const pcm = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) pcm.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / FAKE_SPEECH_SAMPLE_RATE)), i * 2);
  return pcm;
}

/** A RIFF/WAVE file around `fakePcm` (PCM s16le, mono, 24 kHz). */
export function fakeWav(durationMs = 50): Buffer {
  return wavOf(fakePcm(durationMs), FAKE_SPEECH_SAMPLE_RATE);
}

/** Silent MPEG-2 Layer III frames (24 kHz mono, 32 kbit/s, 96 bytes and 24 ms each). */
export function fakeMp3(durationMs = 50): Buffer {
  const frame = Buffer.alloc(96);
  frame.set([0xff, 0xf3, 0x44, 0xc0]);
  return Buffer.concat(Array.from({ length: Math.max(1, Math.ceil(durationMs / 24)) }, () => frame));
}

export const SPEECH_CONTENT_TYPES: Record<string, string> = {
  mp3: 'audio/mpeg',
  opus: 'audio/opus',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
};

// ---------------------------------------------------------------------------------------------
// Internals

type StreamEventType = ResponseStreamEvent['type'];
type EventFields<T extends StreamEventType> = Omit<Extract<ResponseStreamEvent, { type: T }>, 'type' | 'sequence_number'>;

/** The Response object as it travels (the SDK adds `output_text` itself; `usage` is null until the end). */
type WireResponse = Omit<OpenAIResponse, 'output_text' | 'usage' | 'user'> & { usage: ResponseUsage | null; user: string | null } & Record<
    string,
    unknown
  >;

/** What a run needs from the HTTP exchange: write an event, wait, know whether the client is gone, destroy the socket. */
interface Exchange {
  readonly streaming: boolean;
  write(event: string, data: unknown, sseEventName: boolean): void;
  wait(ms: number): Promise<void>;
  readonly closed: boolean;
  abort(): void;
}

class Failed {
  constructor(readonly failure: FakeOpenAIFailure) {}
}

function hex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

function estimateTokens(value: unknown): number {
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? '');
  return Math.max(1, Math.ceil(text.length / 4));
}

function textOfContent(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content
    .filter(
      (part): part is { text: string } =>
        typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string',
    )
    .map((part) => part.text);
  return texts.length ? texts.join('\n') : undefined;
}

/** The text of the last user message of a Responses `input` or a Chat Completions `messages` list. */
export function lastUserText(body: Record<string, unknown>): string | undefined {
  if (typeof body.input === 'string') return body.input;
  const list = Array.isArray(body.input) ? body.input : Array.isArray(body.messages) ? body.messages : [];
  for (let i = list.length - 1; i >= 0; i--) {
    const item = list[i] as { role?: unknown; content?: unknown };
    if (item && item.role === 'user') return textOfContent(item.content);
  }
  return undefined;
}

/** A scripted failure as the `error` object OpenAI answers with (`server_error` unless it says otherwise). */
function failureError(failure: FakeOpenAIFailure): FakeOpenAIHttpError['error'] {
  return { message: failure.message, type: failure.type ?? 'server_error', code: failure.code ?? null };
}

/** One request being answered: what was asked, its record, where the answer goes, and the headers every answer carries. */
interface Answering {
  body: Record<string, unknown>;
  record: FakeOpenAIRequest;
  response: ServerResponse;
  exchange: Exchange;
  baseHeaders: () => Record<string, string>;
  /** An HTTP error answer (the status recorded, OpenAI's error body). */
  answerError: (status: number, error?: FakeOpenAIHttpError['error'], headers?: Record<string, string>) => void;
}

function errorBody(status: number, error: FakeOpenAIHttpError['error'] = {}) {
  const defaults: Record<number, { message: string; type: string; code: string | null }> = {
    400: { message: 'Invalid request.', type: 'invalid_request_error', code: null },
    401: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' },
    403: { message: 'You are not allowed to sample from this model', type: 'invalid_request_error', code: null },
    404: { message: 'The model does not exist or you do not have access to it.', type: 'invalid_request_error', code: 'model_not_found' },
    429: { message: 'Rate limit reached for requests. Please try again in 1s.', type: 'requests', code: 'rate_limit_exceeded' },
    500: { message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error', code: null },
    503: { message: 'The engine is currently overloaded, please try again later', type: 'server_error', code: null },
  };
  const base = defaults[status] ?? {
    message: `HTTP ${status}`,
    type: status >= 500 ? 'server_error' : 'invalid_request_error',
    code: null,
  };
  return {
    error: {
      message: error.message ?? base.message,
      type: error.type ?? base.type,
      param: error.param ?? null,
      code: error.code === undefined ? base.code : error.code,
    },
  };
}

function normalizeResponsesReply(reply: ResponsesReplyInput): ResponsesReply {
  if (typeof reply === 'string') return { steps: [{ text: reply }] };
  if (Array.isArray(reply)) return { steps: reply };
  return reply;
}

function normalizeChatReply(reply: ChatReplyInput): ChatReply {
  if (typeof reply === 'string') return { steps: [{ text: reply }] };
  if (Array.isArray(reply)) return { steps: reply };
  return reply;
}

// ---------------------------------------------------------------------------------------------
// The Responses API run: the same code builds the streamed events and the non-streamed object.

type OpenItem =
  | { kind: 'message'; index: number; item: ResponseOutputMessage; part: ResponseOutputText }
  | { kind: 'reasoning'; index: number; item: ResponseReasoningItem; summaryIndex: number; text: string };

class ResponsesRun {
  private sequence = 0;
  private open: OpenItem | null = null;
  private outputTokens = 0;
  private reasoningTokens = 0;
  readonly snapshot: WireResponse;

  constructor(
    private readonly exchange: Exchange,
    private readonly body: Record<string, unknown>,
    private readonly reply: ResponsesReply,
    private readonly defaults: { chunk: TextChunking; intervalMs: number },
  ) {
    const reasoning = (body.reasoning ?? {}) as { effort?: unknown; summary?: unknown };
    this.snapshot = {
      id: `resp_${hex(24)}`,
      object: 'response',
      created_at: Math.floor(Date.now() / 1000),
      status: 'in_progress',
      background: false,
      completed_at: null,
      error: null,
      incomplete_details: null,
      instructions: (body.instructions ?? null) as WireResponse['instructions'],
      max_output_tokens: (body.max_output_tokens ?? null) as number | null,
      max_tool_calls: null,
      model: reply.model ?? String(body.model),
      output: [],
      parallel_tool_calls: (body.parallel_tool_calls ?? true) as boolean,
      previous_response_id: (body.previous_response_id ?? null) as string | null,
      prompt_cache_key: null,
      reasoning: { effort: reasoning.effort ?? null, summary: reasoning.summary ?? null } as WireResponse['reasoning'],
      safety_identifier: null,
      service_tier: 'auto',
      store: body.store ?? true,
      temperature: (body.temperature ?? 1) as number,
      text: (body.text ?? { format: { type: 'text' }, verbosity: 'medium' }) as WireResponse['text'],
      tool_choice: (body.tool_choice ?? 'auto') as WireResponse['tool_choice'],
      tools: (body.tools ?? []) as WireResponse['tools'],
      top_logprobs: 0,
      top_p: (body.top_p ?? 1) as number,
      truncation: 'disabled',
      usage: null,
      user: null,
      metadata: (body.metadata ?? {}) as Record<string, string>,
    };
  }

  /** Plays the steps; resolves with the failure that ended it, if any. */
  async play(): Promise<Failed | undefined> {
    this.lifecycle('response.created');
    this.lifecycle('response.in_progress');
    for (const step of this.reply.steps ?? []) {
      if (this.exchange.closed) return undefined;
      if ('text' in step) await this.text(step);
      else if ('reasoning' in step) await this.reasoning(step);
      else if ('webSearch' in step) await this.webSearch(step.webSearch);
      else if ('image' in step) await this.image(step.image);
      else if ('toolCall' in step) await this.toolCall(step.toolCall);
      else if ('delayMs' in step) await this.exchange.wait(step.delayMs);
      else if ('stall' in step) await this.exchange.wait(step.stall === true ? Infinity : step.stall);
      else if ('abort' in step) {
        this.exchange.abort();
        return undefined;
      } else if ('fail' in step) {
        this.failWith(step.fail);
        return new Failed(step.fail);
      }
    }
    if (this.exchange.closed) return undefined;
    this.close();
    const usage = this.reply.usage ?? {};
    const input =
      usage.input_tokens ?? estimateTokens(this.body.input) + (this.body.instructions ? estimateTokens(this.body.instructions) : 0);
    const output = usage.output_tokens ?? this.outputTokens;
    this.snapshot.usage = {
      input_tokens: input,
      input_tokens_details: { cached_tokens: usage.cached_tokens ?? 0, cache_write_tokens: 0 },
      output_tokens: output,
      output_tokens_details: { reasoning_tokens: usage.reasoning_tokens ?? this.reasoningTokens },
      total_tokens: input + output,
    };
    this.snapshot.status = 'completed';
    this.snapshot.completed_at = Math.floor(Date.now() / 1000);
    this.lifecycle('response.completed');
    return undefined;
  }

  private emit<T extends StreamEventType>(type: T, fields: EventFields<T>, extra: Record<string, unknown> = {}): void {
    if (!this.exchange.streaming || this.exchange.closed) return;
    this.exchange.write(type, { type, ...fields, ...extra, sequence_number: this.sequence++ }, true);
  }

  private lifecycle(type: 'response.created' | 'response.in_progress' | 'response.completed' | 'response.failed'): void {
    this.emit(type, { response: this.snapshot as unknown as OpenAIResponse });
  }

  private addItem(item: ResponseOutputItem): number {
    const index = this.snapshot.output.length;
    this.snapshot.output.push(item);
    this.emit('response.output_item.added', { output_index: index, item });
    return index;
  }

  private async deltas(text: string, step: { chunk?: TextChunking; intervalMs?: number }, send: (delta: string) => void): Promise<void> {
    const interval = step.intervalMs ?? this.reply.intervalMs ?? this.defaults.intervalMs;
    const pieces = splitText(text, step.chunk ?? this.reply.chunk ?? this.defaults.chunk);
    for (let i = 0; i < pieces.length; i++) {
      if (i > 0 && interval > 0) await this.exchange.wait(interval);
      if (this.exchange.closed) return;
      send(pieces[i]);
    }
  }

  private async text(step: { text: string; chunk?: TextChunking; intervalMs?: number }): Promise<void> {
    if (this.open?.kind !== 'message') {
      this.close();
      const item: ResponseOutputMessage = { id: `msg_${hex(24)}`, type: 'message', status: 'in_progress', content: [], role: 'assistant' };
      const index = this.addItem(item);
      const part: ResponseOutputText = { type: 'output_text', annotations: [], logprobs: [], text: '' };
      item.content.push(part);
      this.emit('response.content_part.added', { item_id: item.id, output_index: index, content_index: 0, part: { ...part } });
      this.open = { kind: 'message', index, item, part };
    }
    const open = this.open;
    await this.deltas(step.text, step, (delta) => {
      open.part.text += delta;
      this.outputTokens++;
      this.emit('response.output_text.delta', { item_id: open.item.id, output_index: open.index, content_index: 0, delta, logprobs: [] });
    });
  }

  private async reasoning(step: { reasoning: string; chunk?: TextChunking; intervalMs?: number }): Promise<void> {
    if (this.open?.kind !== 'reasoning') {
      this.close();
      const item: ResponseReasoningItem = { id: `rs_${hex(24)}`, type: 'reasoning', summary: [] };
      const index = this.addItem(item);
      this.open = { kind: 'reasoning', index, item, summaryIndex: -1, text: '' };
    } else {
      this.closeSummaryPart(this.open);
    }
    const open = this.open;
    open.summaryIndex++;
    open.text = '';
    this.emit('response.reasoning_summary_part.added', {
      item_id: open.item.id,
      output_index: open.index,
      summary_index: open.summaryIndex,
      part: { type: 'summary_text', text: '' },
    });
    await this.deltas(step.reasoning, step, (delta) => {
      open.text += delta;
      this.outputTokens++;
      this.reasoningTokens++;
      this.emit('response.reasoning_summary_text.delta', {
        item_id: open.item.id,
        output_index: open.index,
        summary_index: open.summaryIndex,
        delta,
      });
    });
  }

  private closeSummaryPart(open: Extract<OpenItem, { kind: 'reasoning' }>): void {
    if (open.summaryIndex < 0) return;
    const common = { item_id: open.item.id, output_index: open.index, summary_index: open.summaryIndex };
    this.emit('response.reasoning_summary_text.done', { ...common, text: open.text });
    this.emit('response.reasoning_summary_part.done', { ...common, part: { type: 'summary_text', text: open.text } });
    open.item.summary.push({ type: 'summary_text', text: open.text });
  }

  /** Finishes the open message or reasoning item with its done events. */
  private close(): void {
    const open = this.open;
    this.open = null;
    if (!open) return;
    if (open.kind === 'message') {
      const common = { item_id: open.item.id, output_index: open.index, content_index: 0 };
      this.emit('response.output_text.done', { ...common, text: open.part.text, logprobs: [] });
      this.emit('response.content_part.done', { ...common, part: open.part });
      open.item.status = 'completed';
    } else {
      this.closeSummaryPart(open);
    }
    this.emit('response.output_item.done', { output_index: open.index, item: open.item });
  }

  private async webSearch(search: { query: string; sources?: string[]; durationMs?: number }): Promise<void> {
    this.close();
    const item: ResponseFunctionWebSearch = {
      id: `ws_${hex(24)}`,
      type: 'web_search_call',
      status: 'in_progress',
      action: { type: 'search', query: search.query },
    };
    const index = this.addItem({ ...item, action: { ...item.action } });
    const common = { item_id: item.id, output_index: index };
    this.emit('response.web_search_call.in_progress', common);
    this.emit('response.web_search_call.searching', common);
    if (search.durationMs) await this.exchange.wait(search.durationMs);
    if (this.exchange.closed) return;
    this.emit('response.web_search_call.completed', common);
    item.status = 'completed';
    if (search.sources) item.action = { type: 'search', query: search.query, sources: search.sources.map((url) => ({ type: 'url', url })) };
    this.snapshot.output[index] = item;
    this.emit('response.output_item.done', { output_index: index, item });
  }

  private async toolCall(call: FakeToolCall): Promise<void> {
    this.close();
    const args = toolArguments(call);
    const item: ResponseFunctionToolCall = {
      id: `fc_${hex(24)}`,
      type: 'function_call',
      status: 'in_progress',
      call_id: call.callId ?? `call_${hex(12)}`,
      name: call.name,
      arguments: '',
    };
    const index = this.addItem({ ...item });
    const common = { item_id: item.id!, output_index: index };
    for (const piece of splitText(args, call.chunk ?? Math.max(1, args.length))) {
      if (this.exchange.closed) return;
      this.emit('response.function_call_arguments.delta', { ...common, delta: piece });
    }
    this.emit('response.function_call_arguments.done', { ...common, name: call.name, arguments: args });
    const done = { ...item, arguments: args, status: 'completed' as const };
    this.snapshot.output[index] = done;
    this.emit('response.output_item.done', { output_index: index, item: done });
  }

  private async image(image: { partials: number; prompt?: string; intervalMs?: number; color?: [number, number, number] }): Promise<void> {
    if (!Number.isInteger(image.partials) || image.partials < 0 || image.partials > 3)
      throw new Error('FakeOpenAI: image.partials must be 0..3, like the API');
    this.close();
    const id = `ig_${hex(24)}`;
    const index = this.addItem({ id, type: 'image_generation_call', status: 'in_progress', result: null });
    const common = { item_id: id, output_index: index };
    this.emit('response.image_generation_call.in_progress', common);
    this.emit('response.image_generation_call.generating', common);
    const [r, g, b] = image.color ?? [220, 40, 40];
    for (let i = 0; i < image.partials; i++) {
      if (image.intervalMs) await this.exchange.wait(image.intervalMs);
      if (this.exchange.closed) return;
      // Partials get closer to the final colour, like a progressive render.
      const share = (i + 1) / (image.partials + 1);
      const partial = fakePng([Math.round(r * share), Math.round(g * share), Math.round(b * share)]);
      this.emit('response.image_generation_call.partial_image', {
        ...common,
        partial_image_index: i,
        partial_image_b64: partial.toString('base64'),
      });
    }
    if (image.intervalMs) await this.exchange.wait(image.intervalMs);
    if (this.exchange.closed) return;
    this.emit('response.image_generation_call.completed', common);
    const item = {
      id,
      type: 'image_generation_call' as const,
      status: 'completed' as const,
      result: fakePng([r, g, b]).toString('base64'),
      output_format: 'png',
      background: 'opaque',
      revised_prompt: image.prompt ?? lastUserText(this.body) ?? '',
    };
    this.snapshot.output[index] = item;
    this.emit('response.output_item.done', { output_index: index, item });
  }

  private failWith(failure: FakeOpenAIFailure): void {
    const code = failure.code ?? 'server_error';
    if (failure.as === 'error') {
      // The live API nests the error (the SDK throws an APIError on it); the flat fields are the documented schema.
      this.emit(
        'error',
        { code, message: failure.message, param: null },
        { error: { type: failure.type ?? 'server_error', code, message: failure.message, param: null } },
      );
      return;
    }
    this.snapshot.status = 'failed';
    this.snapshot.error = { code: code as NonNullable<OpenAIResponse['error']>['code'], message: failure.message };
    this.lifecycle('response.failed');
  }
}

// ---------------------------------------------------------------------------------------------
// The fake

/**
 * The part of OpenAI's HTTP API the product uses, scripted: `POST /v1/responses` (streamed or not),
 * `POST /v1/chat/completions` (streamed or not) and `POST /v1/audio/speech`, answered with the shapes
 * the real API sends so the real `openai` SDK parses them. Point the SDK at it with
 * `new OpenAI({ apiKey: 'test', baseURL: `${fake.url}/v1`, maxRetries: 0 })`.
 *
 * Each endpoint has a queue of scripted replies (`script`); an empty queue answers the default reply
 * (the last user message echoed, or a short generated audio). Every answer carries an `x-request-id`.
 */
export class FakeOpenAI {
  private readonly server = new LocalHttpServer((request, response, body, bytes) => this.handle(request, response, body, bytes));
  private readonly queues: { [E in FakeOpenAIEndpoint]: FakeOpenAIReplies[E][] } = {
    responses: [],
    'chat.completions': [],
    'audio.speech': [],
    'audio.transcriptions': [],
  };
  private readonly defaults: { [E in FakeOpenAIEndpoint]: FakeOpenAIDefaultReply<E> };
  private readonly received: FakeOpenAIRequest[] = [];
  private readonly written: FakeOpenAIEmitted[] = [];
  private readonly chunk: TextChunking;
  private readonly intervalMs: number;

  constructor(private readonly options: FakeOpenAIOptions = {}) {
    this.chunk = options.chunk ?? 'word';
    this.intervalMs = options.intervalMs ?? 0;
    this.defaults = {
      responses: options.defaultReplies?.responses ?? ((body) => lastUserText(body) || 'OK'),
      'chat.completions': options.defaultReplies?.['chat.completions'] ?? ((body) => lastUserText(body) || 'OK'),
      'audio.speech': options.defaultReplies?.['audio.speech'] ?? (() => ({})),
      'audio.transcriptions': options.defaultReplies?.['audio.transcriptions'] ?? (() => ({})),
    };
  }

  get url(): string {
    return this.server.url;
  }

  /** The base URL to give the SDK: `<url>/v1`. */
  get baseURL(): string {
    return `${this.server.url}/v1`;
  }

  start(): Promise<{ url: string }> {
    return this.server.start();
  }

  /** Stops listening; streams still open (stalls included) are cut. */
  stop(): Promise<void> {
    return this.server.stop();
  }

  /** Queues replies, played by the next requests to this endpoint in order. */
  script<E extends FakeOpenAIEndpoint>(endpoint: E, ...replies: FakeOpenAIReplies[E][]): this {
    this.queues[endpoint].push(...replies);
    return this;
  }

  /** What an endpoint answers when its queue is empty. */
  setDefaultReply<E extends FakeOpenAIEndpoint>(endpoint: E, reply: FakeOpenAIDefaultReply<E>): this {
    (this.defaults as Record<E, FakeOpenAIDefaultReply<E>>)[endpoint] = reply;
    return this;
  }

  /** How many scripted replies are still queued for an endpoint. */
  pending(endpoint: FakeOpenAIEndpoint): number {
    return this.queues[endpoint].length;
  }

  /** Every request received, oldest first (optionally only an endpoint's). */
  requests(endpoint?: FakeOpenAIEndpoint): FakeOpenAIRequest[] {
    return this.received.filter((request) => endpoint === undefined || request.endpoint === endpoint);
  }

  /** Everything written to clients, oldest first, with timestamps (optionally only one answer's, by its x-request-id). */
  emitted(requestId?: string): FakeOpenAIEmitted[] {
    return this.written.filter((entry) => requestId === undefined || entry.requestId === requestId);
  }

  /** Forgets queued replies, requests and emitted events (default replies stay). */
  reset(): void {
    for (const queue of Object.values(this.queues)) queue.length = 0;
    this.received.length = 0;
    this.written.length = 0;
  }

  private async handle(request: IncomingMessage, response: ServerResponse, rawBody: string, bytes: Buffer): Promise<void> {
    const startedAt = performance.now();
    const path = new URL(request.url ?? '/', 'http://fake').pathname;
    const method = request.method ?? '';
    let body: Record<string, unknown> = {};
    let parsed = true;
    const upload = path === '/v1/audio/transcriptions' ? readMultipart(request.headers['content-type'], bytes) : undefined;
    if (upload) {
      body = Object.fromEntries(Object.entries(upload).filter(([key, value]) => key !== 'bytes' && typeof value === 'string'));
    } else if (rawBody) {
      try {
        const value: unknown = JSON.parse(rawBody);
        if (value && typeof value === 'object' && !Array.isArray(value)) body = value as Record<string, unknown>;
        else parsed = false;
      } catch {
        parsed = false;
      }
    }
    const routes: Record<string, FakeOpenAIEndpoint> = {
      '/v1/responses': 'responses',
      '/v1/chat/completions': 'chat.completions',
      '/v1/audio/speech': 'audio.speech',
      '/v1/audio/transcriptions': 'audio.transcriptions',
    };
    const endpoint = method === 'POST' ? (routes[path] ?? null) : null;
    const record: FakeOpenAIRequest = {
      endpoint,
      method,
      path,
      headers: request.headers,
      body,
      rawBody: upload ? `(multipart, ${bytes.length} bytes)` : rawBody,
      ...(upload ? { upload } : {}),
      stream: body.stream === true || (endpoint === 'audio.speech' && body.stream_format === 'sse'),
      requestId: `req_${hex(16)}`,
      status: 0,
      at: startedAt,
    };
    this.received.push(record);
    response.on('error', () => undefined);
    const baseHeaders = () => ({
      'x-request-id': record.requestId,
      'openai-version': '2020-10-01',
      'openai-processing-ms': String(Math.round(performance.now() - startedAt)),
    });
    const answerError = (status: number, error?: FakeOpenAIHttpError['error'], headers: Record<string, string> = {}) => {
      record.status = status;
      sendJson(response, status, errorBody(status, error), { ...baseHeaders(), ...headers });
    };

    if (!endpoint) return answerError(404, { message: `Invalid URL (${method} ${path})`, code: null });
    if (this.options.apiKey !== undefined) {
      const key = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1];
      if (!key) {
        return answerError(401, {
          message:
            "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
          code: null,
        });
      }
      if (key !== this.options.apiKey) {
        const shown =
          key.length > 8 ? `${key.slice(0, 3)}${'*'.repeat(Math.min(20, key.length - 7))}${key.slice(-4)}` : `${key.slice(0, 2)}**`;
        return answerError(401, {
          message: `Incorrect API key provided: ${shown}. You can find your API key at https://platform.openai.com/account/api-keys.`,
          code: 'invalid_api_key',
        });
      }
    }
    if (!parsed) {
      return answerError(400, {
        message:
          "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly.)",
        code: null,
      });
    }
    const missing = (param: string) =>
      answerError(400, { message: `Missing required parameter: '${param}'.`, param, code: 'missing_required_parameter' });
    if (typeof body.model !== 'string' || !body.model) return missing('model');
    if (endpoint === 'chat.completions' && !Array.isArray(body.messages)) return missing('messages');
    if (endpoint === 'audio.speech' && typeof body.input !== 'string') return missing('input');
    if (endpoint === 'audio.speech' && body.voice === undefined) return missing('voice');
    if (endpoint === 'audio.transcriptions' && !upload?.filename) return missing('file');

    const exchange = this.exchange(endpoint, record, response);
    const answering: Answering = { body, record, response, exchange, baseHeaders, answerError };
    if (endpoint === 'responses') {
      const reply = normalizeResponsesReply(this.queues.responses.shift() ?? this.defaults.responses(body));
      if (!(await this.preamble(reply, exchange, answerError))) return;
      return this.answerResponses(reply, answering);
    }
    if (endpoint === 'chat.completions') {
      const reply = normalizeChatReply(this.queues['chat.completions'].shift() ?? this.defaults['chat.completions'](body));
      if (!(await this.preamble(reply, exchange, answerError))) return;
      return this.answerChat(reply, answering);
    }
    if (endpoint === 'audio.transcriptions') {
      const reply = this.queues['audio.transcriptions'].shift() ?? this.defaults['audio.transcriptions'](body);
      if (!(await this.preamble(reply, exchange, answerError))) return;
      record.status = 200;
      const text = reply.text ?? `Transcribed ${upload!.bytes.length} bytes of ${upload!.filename}.`;
      const usage = { type: 'duration', seconds: Math.max(1, Math.round(upload!.bytes.length / 48_000)) };
      return sendJson(response, 200, { text, usage }, { ...baseHeaders(), ...reply.headers });
    }
    const reply = this.queues['audio.speech'].shift() ?? this.defaults['audio.speech'](body);
    if (!(await this.preamble(reply, exchange, answerError))) return;
    return this.answerSpeech(reply, answering);
  }

  /** The delay before headers and a scripted HTTP error; false when the exchange is over. */
  private async preamble(
    reply: { status?: number; error?: FakeOpenAIHttpError['error']; headers?: Record<string, string>; headersDelayMs?: number },
    exchange: Exchange,
    answerError: (status: number, error?: FakeOpenAIHttpError['error'], headers?: Record<string, string>) => void,
  ): Promise<boolean> {
    if (reply.headersDelayMs) await exchange.wait(reply.headersDelayMs);
    if (exchange.closed) return false;
    if (reply.status !== undefined && reply.status >= 400) {
      answerError(reply.status, reply.error, reply.headers);
      return false;
    }
    return true;
  }

  private exchange(endpoint: FakeOpenAIEndpoint, record: FakeOpenAIRequest, response: ServerResponse): Exchange & { streaming: boolean } {
    let closed = false;
    response.once('close', () => {
      closed = true;
    });
    const written = this.written;
    return {
      streaming: record.stream,
      get closed() {
        return closed || response.destroyed;
      },
      write(event: string, data: unknown, sseEventName: boolean) {
        if (closed || response.destroyed) return;
        const json = typeof data === 'string' ? data : JSON.stringify(data);
        written.push({
          requestId: record.requestId,
          endpoint,
          event,
          data: typeof data === 'string' ? data : JSON.parse(json),
          at: performance.now(),
          hrtime: process.hrtime.bigint(),
        });
        response.write(`${sseEventName ? `event: ${event}\n` : ''}data: ${json}\n\n`);
      },
      wait(ms: number) {
        return new Promise<void>((resolve) => {
          if (closed || response.destroyed || ms <= 0) return resolve();
          const done = () => {
            clearTimeout(timer);
            response.off('close', done);
            resolve();
          };
          const timer = Number.isFinite(ms) ? setTimeout(done, ms) : undefined;
          response.on('close', done);
        });
      },
      abort() {
        closed = true;
        response.destroy();
      },
    };
  }

  private startStream(response: ServerResponse, record: FakeOpenAIRequest, headers: Record<string, string>): void {
    record.status = 200;
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      ...headers,
    });
    response.flushHeaders();
  }

  private async answerResponses(
    reply: ResponsesReply,
    { body, record, response, exchange, baseHeaders, answerError }: Answering,
  ): Promise<void> {
    const run = new ResponsesRun(exchange, body, reply, { chunk: this.chunk, intervalMs: this.intervalMs });
    if (record.stream) {
      this.startStream(response, record, { ...baseHeaders(), ...reply.headers });
      await run.play();
      if (!exchange.closed) response.end();
      return;
    }
    const failed = await run.play();
    if (exchange.closed) return;
    if (failed) return answerError(500, failureError(failed.failure));
    record.status = 200;
    sendJson(response, 200, run.snapshot, { ...baseHeaders(), ...reply.headers });
  }

  private async answerChat(reply: ChatReply, { body, record, response, exchange, baseHeaders, answerError }: Answering): Promise<void> {
    const id = `chatcmpl-${randomBytes(22).toString('base64url').slice(0, 29)}`;
    const created = Math.floor(Date.now() / 1000);
    const model = reply.model ?? String(body.model);
    const fingerprint = `fp_${hex(5)}`;
    const reasoningField = reply.reasoningField ?? 'reasoning_content';
    const includeUsage = (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
    let content = '';
    let reasoning = '';
    const toolCalls: NonNullable<ChatCompletion.Choice['message']['tool_calls']> = [];
    let completionTokens = 0;
    let reasoningTokens = 0;
    // What every chunk of the stream starts with.
    const envelope = {
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      service_tier: 'default',
      system_fingerprint: fingerprint,
    } as const;
    const chunk = (delta: Record<string, unknown>, finishReason: ChatCompletionChunk.Choice['finish_reason'] = null) => {
      const value: ChatCompletionChunk & Record<string, unknown> = {
        ...envelope,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      };
      if (includeUsage) value.usage = null;
      exchange.write('chunk', value, false);
    };
    const send = async (
      kind: 'content' | 'reasoning',
      step: { text?: string; reasoning?: string; chunk?: TextChunking; intervalMs?: number },
    ) => {
      const interval = step.intervalMs ?? reply.intervalMs ?? this.intervalMs;
      const pieces = splitText((kind === 'content' ? step.text : step.reasoning) ?? '', step.chunk ?? reply.chunk ?? this.chunk);
      for (let i = 0; i < pieces.length; i++) {
        if (i > 0 && interval > 0) await exchange.wait(interval);
        if (exchange.closed) return;
        completionTokens++;
        if (kind === 'content') {
          content += pieces[i];
          if (record.stream) chunk({ content: pieces[i] });
        } else {
          reasoningTokens++;
          reasoning += pieces[i];
          if (record.stream) chunk({ content: null, [reasoningField]: pieces[i] });
        }
      }
    };

    if (record.stream) {
      this.startStream(response, record, { ...baseHeaders(), ...reply.headers });
      chunk({ role: 'assistant', content: '', refusal: null });
    }
    let failure: FakeOpenAIFailure | undefined;
    for (const step of reply.steps ?? []) {
      if (exchange.closed) return;
      if ('text' in step) await send('content', step);
      else if ('reasoning' in step) await send('reasoning', step);
      else if ('toolCall' in step) {
        const index = toolCalls.length;
        const args = toolArguments(step.toolCall);
        const call = {
          id: step.toolCall.callId ?? `call_${hex(12)}`,
          type: 'function' as const,
          function: { name: step.toolCall.name, arguments: args },
        };
        toolCalls.push(call);
        completionTokens++;
        if (record.stream) {
          chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] });
          for (const piece of splitText(args, step.toolCall.chunk ?? Math.max(1, args.length)))
            chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
        }
      } else if ('delayMs' in step) await exchange.wait(step.delayMs);
      else if ('stall' in step) await exchange.wait(step.stall === true ? Infinity : step.stall);
      else if ('abort' in step) return exchange.abort();
      else if ('fail' in step) {
        failure = step.fail;
        break;
      }
    }
    if (exchange.closed) return;
    const promptTokens = reply.usage?.prompt_tokens ?? estimateTokens(body.messages);
    const completion = reply.usage?.completion_tokens ?? completionTokens;
    const usage: CompletionUsage = {
      prompt_tokens: promptTokens,
      completion_tokens: completion,
      total_tokens: promptTokens + completion,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: {
        reasoning_tokens: reply.usage?.reasoning_tokens ?? reasoningTokens,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
    };

    if (record.stream) {
      if (failure) {
        exchange.write('error', errorBody(500, failureError(failure)), false);
      } else {
        chunk({}, reply.finishReason ?? (toolCalls.length ? 'tool_calls' : 'stop'));
        if (includeUsage) {
          exchange.write('chunk', { ...envelope, choices: [], usage }, false);
        }
        exchange.write('[DONE]', '[DONE]', false);
      }
      response.end();
      return;
    }
    if (failure) return answerError(500, failureError(failure));
    const message: ChatCompletion.Choice['message'] & Record<string, unknown> = {
      role: 'assistant',
      content,
      refusal: null,
      annotations: [],
    };
    if (reasoning) message[reasoningField] = reasoning;
    if (toolCalls.length) message.tool_calls = toolCalls;
    const completionObject: ChatCompletion = {
      id,
      object: 'chat.completion',
      created,
      model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: reply.finishReason ?? (toolCalls.length ? 'tool_calls' : 'stop') }],
      usage,
      service_tier: 'default',
      system_fingerprint: fingerprint,
    };
    record.status = 200;
    sendJson(response, 200, completionObject, { ...baseHeaders(), ...reply.headers });
  }

  private async answerSpeech(reply: SpeechReply, { body, record, response, exchange, baseHeaders }: Answering): Promise<void> {
    const format = typeof body.response_format === 'string' ? body.response_format : 'mp3';
    const contentType = reply.contentType ?? SPEECH_CONTENT_TYPES[format];
    if (!contentType) {
      record.status = 400;
      const message = `Invalid value: '${format}'. Supported values are: 'mp3', 'opus', 'aac', 'flac', 'wav', and 'pcm'.`;
      sendJson(response, 400, errorBody(400, { message, param: 'response_format', code: 'invalid_value' }), baseHeaders());
      return;
    }
    const duration = reply.durationMs ?? 50;
    // mp3, wav and pcm are real audio; opus, aac and flac get the WAV's bytes (not encoded) under their content type.
    const audio = Buffer.from(
      reply.audio ?? (format === 'mp3' ? fakeMp3(duration) : format === 'pcm' ? fakePcm(duration) : fakeWav(duration)),
    );
    const pieces = Math.max(1, Math.min(reply.chunks ?? 1, audio.length));
    const size = Math.ceil(audio.length / pieces);
    const sse = body.stream_format === 'sse';
    record.status = 200;
    response.writeHead(200, { 'content-type': sse ? 'text/event-stream; charset=utf-8' : contentType, ...baseHeaders(), ...reply.headers });
    response.flushHeaders();
    for (let i = 0; i * size < audio.length; i++) {
      if (i > 0 && reply.intervalMs) await exchange.wait(reply.intervalMs);
      if (exchange.closed) return;
      if (reply.abortAfterChunks !== undefined && i >= reply.abortAfterChunks) return exchange.abort();
      const piece = audio.subarray(i * size, (i + 1) * size);
      if (sse) {
        exchange.write('speech.audio.delta', { type: 'speech.audio.delta', audio: piece.toString('base64') }, false);
      } else {
        this.written.push({
          requestId: record.requestId,
          endpoint: 'audio.speech',
          event: 'audio',
          data: { bytes: piece.length },
          at: performance.now(),
          hrtime: process.hrtime.bigint(),
        });
        response.write(piece);
      }
    }
    if (sse) {
      const input = estimateTokens(body.input);
      const output = Math.ceil(audio.length / 320);
      exchange.write(
        'speech.audio.done',
        { type: 'speech.audio.done', usage: { input_tokens: input, output_tokens: output, total_tokens: input + output } },
        false,
      );
    }
    response.end();
  }
}
