import { randomUUID } from 'node:crypto';
import type { Caller, ChunkOf, RequestOf, ResponseOf, RpcContract, RpcErrorShape, StreamContract } from '@app/contracts';
import { RpcCallError } from '../errors/domain-error';
import { injectTraceContext, withSpan } from '../telemetry/trace-context';
import { BusNoRespondersError, BusTimeoutError, type Bus, type Headers } from './bus';
import { BUS_HEADERS, decode, encode, ReplyEnvelopeSchema, type RequestEnvelope } from './codec';

export interface CallOptions {
  timeoutMs?: number;
}

function serviceOf(subject: string): string {
  return subject.split('.')[0];
}

/** The caller's side of every RPC: typed by the contract, always with a timeout. */
export class RpcClient {
  constructor(
    private readonly bus: Bus,
    private readonly defaultTimeoutMs: number,
  ) {}

  async call<C extends RpcContract>(contract: C, data: RequestOf<C>, caller: Caller, options: CallOptions = {}): Promise<ResponseOf<C>> {
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    return withSpan(`rpc ${contract.subject}`, 'client', { 'messaging.system': this.bus.kind, 'rpc.method': contract.subject }, async () => {
      const reply = await this.send(contract.subject, { caller, data }, this.headersFor(caller), timeoutMs);
      const envelope = this.parseEnvelope(contract.subject, reply);
      if (!envelope.ok) throw new RpcCallError(envelope.error, contract.subject);
      return this.parseBody(contract.subject, contract.response, envelope.data) as ResponseOf<C>;
    });
  }

  /**
   * Calls a streaming subject and yields its chunks in order. The first frame must arrive within
   * the timeout, and so must every next one; the service ends the stream.
   */
  async *stream<C extends StreamContract>(
    contract: C,
    data: RequestOf<C>,
    caller: Caller,
    options: CallOptions = {},
  ): AsyncGenerator<ChunkOf<C>, void, undefined> {
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    const inbox = this.bus.createInbox();
    const frames = new Map<number, { data: Uint8Array; end: boolean }>();
    let wake: (() => void) | undefined;
    const subscription = await this.bus.subscribe(inbox, (message) => {
      const seq = Number(message.headers[BUS_HEADERS.streamSeq]);
      frames.set(seq, { data: message.data, end: message.headers[BUS_HEADERS.streamEnd] === '1' });
      wake?.();
    });
    try {
      const headers = { ...this.headersFor(caller), [BUS_HEADERS.streamInbox]: inbox };
      const accepted = this.parseEnvelope(contract.subject, await this.send(contract.subject, { caller, data }, headers, timeoutMs));
      if (!accepted.ok) throw new RpcCallError(accepted.error, contract.subject);
      for (let next = 0; ; next++) {
        let frame = frames.get(next);
        while (!frame) {
          await new Promise<void>((resolve, reject) => {
            const timer = setTimeout(() => reject(this.timeoutError(contract.subject, timeoutMs)), timeoutMs);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          frame = frames.get(next);
        }
        frames.delete(next);
        const envelope = this.parseEnvelope(contract.subject, { data: frame.data });
        if (!envelope.ok) throw new RpcCallError(envelope.error, contract.subject);
        if (frame.end) return;
        yield this.parseBody(contract.subject, contract.chunk, envelope.data) as ChunkOf<C>;
      }
    } finally {
      wake = undefined;
      await subscription.close();
    }
  }

  private headersFor(caller: Caller): Headers {
    return injectTraceContext({ [BUS_HEADERS.requestId]: caller.request_id || randomUUID() });
  }

  private async send(subject: string, envelope: RequestEnvelope, headers: Headers, timeoutMs: number) {
    try {
      return await this.bus.request(subject, encode(envelope), headers, timeoutMs);
    } catch (error) {
      if (error instanceof BusNoRespondersError) {
        throw new RpcCallError(
          { status: 503, detail: `The ${serviceOf(subject)} service is unavailable, please try again shortly`, code: 'unavailable' },
          subject,
        );
      }
      if (error instanceof BusTimeoutError) throw this.timeoutError(subject, timeoutMs);
      throw error;
    }
  }

  private timeoutError(subject: string, timeoutMs: number): RpcCallError {
    const shape: RpcErrorShape = {
      status: 504,
      detail: `The ${serviceOf(subject)} service did not answer in time (${timeoutMs} ms)`,
      code: 'timeout',
    };
    return new RpcCallError(shape, subject);
  }

  private parseEnvelope(subject: string, reply: { data: Uint8Array }) {
    let raw: unknown;
    try {
      raw = decode(reply.data);
    } catch {
      raw = undefined;
    }
    const parsed = ReplyEnvelopeSchema.safeParse(raw);
    if (!parsed.success) {
      throw new RpcCallError({ status: 502, detail: `The ${serviceOf(subject)} service sent a malformed answer`, code: 'internal' }, subject);
    }
    return parsed.data;
  }

  private parseBody(subject: string, schema: RpcContract['response'], body: unknown): unknown {
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      throw new RpcCallError(
        { status: 502, detail: `The ${serviceOf(subject)} service answered in an unexpected shape`, code: 'internal' },
        subject,
      );
    }
    return parsed.data;
  }
}
