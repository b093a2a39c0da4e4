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

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** JSON on the wire, on both transports: nothing may rely on sharing object references. */
export function encode(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}

export function decode(bytes: Uint8Array): unknown {
  return JSON.parse(decoder.decode(bytes));
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
  eventSubject: 'x-event-subject',
} as const;
