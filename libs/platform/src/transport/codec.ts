import { CallerSchema, RpcErrorSchema, type Caller, type RpcErrorShape } from '@app/contracts';
import { z } from 'zod';

/** Body of every request on the bus. */
export interface RequestEnvelope {
  caller: Caller;
  data: unknown;
}
export const RequestEnvelopeSchema = z.object({ caller: CallerSchema, data: z.unknown() });

/** Body of every reply (and of every stream frame). */
export type ReplyEnvelope = { ok: true; data: unknown } | { ok: false; error: RpcErrorShape };
export const ReplyEnvelopeSchema = z.union([
  z.object({ ok: z.literal(true), data: z.unknown() }),
  z.object({ ok: z.literal(false), error: RpcErrorSchema }),
]);

/**
 * `RequestEnvelopeSchema.safeParse(value).data`, checked by hand: every request's fixed shape, on
 * the hot path of each call. The same output (unknown keys left out); undefined for whatever the
 * schema refuses, and for an envelope without `data` (the schema decides it, and says what is wrong).
 */
export function parseRequestEnvelope(value: unknown): RequestEnvelope | undefined {
  if (!isPlainRecord(value) || !('data' in value)) return undefined;
  const caller = value.caller;
  if (!isPlainRecord(caller)) return undefined;
  const { user_id, is_anon, session_id, request_id } = caller;
  if (
    (user_id === null || isStringOfLength(user_id, 1, 64)) &&
    typeof is_anon === 'boolean' &&
    (session_id === null || isStringOfLength(session_id, 1, 128)) &&
    isStringOfLength(request_id, 1, 128)
  ) {
    return { caller: { user_id, is_anon, session_id, request_id: request_id as string }, data: value.data };
  }
  return undefined;
}

/**
 * `ReplyEnvelopeSchema.safeParse(value).data` for an answer, `{ ok: true, data }`, checked by hand
 * (every call's reply); undefined for anything else: an error answer, or what is malformed, is the
 * schema's.
 */
export function parseOkReplyEnvelope(value: unknown): { ok: true; data: unknown } | undefined {
  return isPlainRecord(value) && value.ok === true && 'data' in value ? { ok: true, data: value.data } : undefined;
}

/** An object (as JSON makes them), not an array or null: what `z.object` takes. */
function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringOfLength(value: unknown, min: number, max: number): value is string {
  return typeof value === 'string' && value.length >= min && value.length <= max;
}

/** The service's first answer to a stream call: the stream is on, with a heartbeat every `heartbeat_ms`. */
export const StreamAcceptedSchema = z.object({ accepted: z.literal(true), heartbeat_ms: z.number().int().positive().optional() });
export type StreamAccepted = z.infer<typeof StreamAcceptedSchema>;

const decoder = new TextDecoder();

/**
 * JSON on the wire, on both transports: nothing may rely on sharing object references. The bytes
 * are a Buffer (a Uint8Array): a short one is cut from Node's shared pool, several times cheaper
 * than a TextEncoder's array of its own (two of these per call, on the hot path of every RPC).
 */
export function encode(value: unknown): Uint8Array {
  return Buffer.from(JSON.stringify(value), 'utf8');
}

export function decode(bytes: Uint8Array): unknown {
  return JSON.parse(decoder.decode(bytes));
}

/** What the bytes say, or undefined when they are not JSON: the schema check that follows refuses it. */
export function decodeOrUndefined(bytes: Uint8Array): unknown {
  try {
    return decode(bytes);
  } catch {
    return undefined;
  }
}

/** Header names used on the bus. */
export const BUS_HEADERS = {
  requestId: 'x-request-id',
  /** Inbox a streamed answer is published to. */
  streamInbox: 'x-stream-inbox',
  /** Frame number of a streamed answer, from 0. */
  streamSeq: 'x-stream-seq',
  /** Set on the last frame of a stream. */
  streamEnd: 'x-stream-end',
  /**
   * On a stream call: the caller understands heartbeats. On a message of the stream: a heartbeat
   * (no body, no frame number of its own), the producer is alive; its `x-stream-seq` says how many
   * frames were sent before it, so a lost frame is noticed.
   */
  streamHeartbeat: 'x-stream-heartbeat',
  /**
   * On a stream call with an acceptance deadline: epoch ms past which the service must not start it
   * (the caller has given up on it and may have asked another replica).
   */
  streamAcceptBy: 'x-stream-accept-by',
  eventSubject: 'x-event-subject',
} as const;

/**
 * Where the caller of a stream says it has gone (its inbox with this suffix): a caller that stops
 * reading before the end (the HTTP client left, the gateway gave up) publishes an empty message
 * there, and the producer stops (a synthesis is cancelled in its engine, not spoken for nobody).
 */
export const STREAM_CANCEL_SUFFIX = '.cancel';
