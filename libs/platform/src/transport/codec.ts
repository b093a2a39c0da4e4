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

/** The service's first answer to a stream call: the stream is on, with a heartbeat every `heartbeat_ms`. */
export const StreamAcceptedSchema = z.object({ accepted: z.literal(true), heartbeat_ms: z.number().int().positive().optional() });
export type StreamAccepted = z.infer<typeof StreamAcceptedSchema>;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** JSON on the wire, on both transports: nothing may rely on sharing object references. */
export function encode(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
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
