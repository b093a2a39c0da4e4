import type { z } from 'zod';

/** A request/reply call to one service: subject, what it accepts, what it answers. */
export interface RpcContract<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  readonly kind: 'rpc';
  readonly subject: string;
  readonly request: Req;
  readonly response: Res;
  readonly description: string;
}

/** A call answered by a stream of chunks (a streamed reply, say), ended by the service. */
export interface StreamContract<Req extends z.ZodType = z.ZodType, Chunk extends z.ZodType = z.ZodType> {
  readonly kind: 'stream';
  readonly subject: string;
  readonly request: Req;
  readonly chunk: Chunk;
  /**
   * A check equivalent to `chunk` for the stream's most frequent chunks (a reply's text deltas):
   * what it accepts is passed as it is, without running the schema (on both sides of the bus, for
   * each of thousands of chunks a second); what it does not accept goes through the schema.
   */
  readonly hotChunk?: (value: unknown) => boolean;
  readonly description: string;
}

/** A fact published on the event stream; consumers are durable and idempotent. */
export interface EventContract<Payload extends z.ZodType = z.ZodType> {
  readonly kind: 'event';
  readonly subject: string;
  readonly payload: Payload;
  readonly description: string;
}

const SUBJECT = /^[a-z][a-z0-9-]*(\.[a-z][a-z0-9_-]*)+$/;

function checkSubject(subject: string, eventLike: boolean): void {
  if (!SUBJECT.test(subject)) throw new Error(`Invalid subject "${subject}"`);
  if (eventLike !== subject.startsWith(`${EVENT_SUBJECT_ROOT}.`)) {
    throw new Error(`Subject "${subject}": events live under "${EVENT_SUBJECT_ROOT}.", commands do not`);
  }
}

export function defineRpc<Req extends z.ZodType, Res extends z.ZodType>(def: Omit<RpcContract<Req, Res>, 'kind'>): RpcContract<Req, Res> {
  checkSubject(def.subject, false);
  return Object.freeze({ kind: 'rpc', ...def });
}

export function defineStream<Req extends z.ZodType, Chunk extends z.ZodType>(
  def: Omit<StreamContract<Req, Chunk>, 'kind'>,
): StreamContract<Req, Chunk> {
  checkSubject(def.subject, false);
  return Object.freeze({ kind: 'stream', ...def });
}

export function defineEvent<Payload extends z.ZodType>(def: Omit<EventContract<Payload>, 'kind'>): EventContract<Payload> {
  checkSubject(def.subject, true);
  return Object.freeze({ kind: 'event', ...def });
}

export type RequestOf<C extends RpcContract | StreamContract> = z.input<C['request']>;
export type ResponseOf<C extends RpcContract> = z.output<C['response']>;
export type ChunkOf<C extends StreamContract> = z.output<C['chunk']>;
export type PayloadOf<C extends EventContract> = z.output<C['payload']>;

/** Every event subject starts with this; the JetStream stream captures `events.>`. */
export const EVENT_SUBJECT_ROOT = 'events';
export const EVENT_STREAM_NAME = 'EVENTS';
