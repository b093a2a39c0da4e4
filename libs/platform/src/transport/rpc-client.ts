import { randomUUID } from 'node:crypto';
import type { Caller, ChunkOf, RequestOf, ResponseOf, RpcContract, RpcErrorShape, StreamContract } from '@app/contracts';
import { RpcCallError } from '../errors/domain-error';
import { platformMetrics, type RpcOutcome } from '../telemetry/metrics';
import { injectTraceContext, startClientSpan, withSpan, type OpenSpan } from '../telemetry/trace-context';
import { BusNoRespondersError, BusTimeoutError, BusUnavailableError, type Bus, type Headers } from './bus';
import {
  BUS_HEADERS,
  STREAM_CANCEL_SUFFIX,
  decodeOrUndefined,
  encode,
  ReplyEnvelopeSchema,
  StreamAcceptedSchema,
  type RequestEnvelope,
} from './codec';
import { StreamInbox, type Clock, type StreamFailureCause } from './stream-inbox';

export interface CallOptions {
  timeoutMs?: number;
  /** Streams: stops waiting for frames (the generator throws the signal's reason). */
  signal?: AbortSignal;
}

export interface RpcClientOptions {
  /** Heartbeats of a stream that may go missing before its producer is taken for dead. */
  heartbeatMisses?: number;
  /** For tests of the stream watchdog. */
  clock?: Clock;
}

/** Seconds a client is told to wait before trying again when the bus or a service is away. */
const RETRY_SOON_SECONDS = 2;

function serviceOf(subject: string): string {
  return subject.split('.')[0];
}

/** The caller's side of every RPC: typed by the contract, always with a timeout. */
export class RpcClient {
  private readonly heartbeatMisses: number;

  constructor(
    private readonly bus: Bus,
    private readonly defaultTimeoutMs: number,
    private readonly options: RpcClientOptions = {},
  ) {
    this.heartbeatMisses = options.heartbeatMisses ?? 3;
  }

  /** The client of a process, with its configured timeout and heartbeat tolerance. */
  static forRuntime(runtime: { bus: Bus; env: { RPC_TIMEOUT_MS: number; STREAM_HEARTBEAT_MISSES?: number } }): RpcClient {
    return new RpcClient(runtime.bus, runtime.env.RPC_TIMEOUT_MS, { heartbeatMisses: runtime.env.STREAM_HEARTBEAT_MISSES });
  }

  async call<C extends RpcContract>(contract: C, data: RequestOf<C>, caller: Caller, options: CallOptions = {}): Promise<ResponseOf<C>> {
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    return withSpan(
      `rpc ${contract.subject}`,
      'client',
      { 'messaging.system': this.bus.kind, 'rpc.method': contract.subject },
      async () => {
        const envelope = await this.send(contract.subject, { caller, data }, this.headersFor(caller), timeoutMs);
        if (!envelope.ok) throw new RpcCallError(envelope.error, contract.subject);
        return this.parseBody(contract.subject, contract.response, envelope.data) as ResponseOf<C>;
      },
    );
  }

  /**
   * Calls a streaming subject and yields its chunks in order. The first frame must arrive within
   * the timeout, and so must every next one; the service ends the stream. When the service sends
   * heartbeats, a producer that goes silent for a few of them (it died) fails the stream at once
   * with a 503, as does a frame lost on the way or the loss of the bus connection.
   */
  async *stream<C extends StreamContract>(
    contract: C,
    data: RequestOf<C>,
    caller: Caller,
    options: CallOptions = {},
  ): AsyncGenerator<ChunkOf<C>, void, undefined> {
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    if (!this.bus.connected) throw this.busDown(contract.subject);
    const frames = new StreamInbox({
      idleTimeoutMs: timeoutMs,
      failure: (cause, silentMs) => this.streamFailure(contract.subject, cause, timeoutMs, silentMs),
      clock: this.options.clock,
    });
    const stopWatchingBus = this.bus.onConnectionLost(() => frames.fail(this.busDown(contract.subject)));
    // One client span for the whole stream, from the request to its last frame: the service's span is its child.
    const span: OpenSpan = startClientSpan(`rpc ${contract.subject}`, {
      'messaging.system': this.bus.kind,
      'rpc.method': contract.subject,
    });
    let failure: unknown;
    const onAbort = () =>
      frames.fail(options.signal?.reason instanceof Error ? options.signal.reason : new Error('The stream was abandoned'));
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    let open = false;
    try {
      const inbox = this.bus.createInbox();
      const subscription = await this.subscribe(contract.subject, inbox, frames);
      try {
        // Asks for heartbeats; a service of an older version ignores the header and sends none.
        const headers = { ...this.headersFor(caller, span), [BUS_HEADERS.streamInbox]: inbox, [BUS_HEADERS.streamHeartbeat]: '1' };
        const accepted = await this.send(contract.subject, { caller, data }, headers, timeoutMs);
        if (!accepted.ok) throw new RpcCallError(accepted.error, contract.subject);
        open = true;
        const terms = StreamAcceptedSchema.safeParse(accepted.data);
        if (terms.success && terms.data.heartbeat_ms) frames.watch(terms.data.heartbeat_ms, this.heartbeatMisses);
        for (;;) {
          const frame = await frames.take();
          const envelope = this.parseEnvelope(contract.subject, frame);
          if (frame.end) open = false;
          if (!envelope.ok) throw new RpcCallError(envelope.error, contract.subject);
          if (frame.end) return;
          yield this.parseBody(contract.subject, contract.chunk, envelope.data) as ChunkOf<C>;
        }
      } finally {
        // Left before the producer's last frame (the reader stopped, a timeout, an abort): it stops too.
        if (open) this.cancelStream(inbox);
        await subscription.close();
      }
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      span.end(failure);
      frames.close();
      stopWatchingBus();
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Tells the producer of a stream that its caller has gone (best effort: a lost bus has ended it anyway). */
  private cancelStream(inbox: string): void {
    try {
      this.bus.publish(`${inbox}${STREAM_CANCEL_SUFFIX}`, new Uint8Array(0));
    } catch {
      // The bus is down: the producer's own publishes fail, or its grace period ends the stream.
    }
  }

  private async subscribe(subject: string, inbox: string, frames: StreamInbox) {
    try {
      return await this.bus.subscribe(inbox, (message) => frames.receive(message.headers, message.data));
    } catch (error) {
      if (error instanceof BusUnavailableError) throw this.busDown(subject);
      throw error;
    }
  }

  private streamFailure(subject: string, cause: StreamFailureCause, timeoutMs: number, silentMs: number): RpcCallError {
    const service = serviceOf(subject);
    if (cause === 'idle') return this.timeoutError(subject, timeoutMs);
    const detail =
      cause === 'silent'
        ? `The ${service} service stopped responding while answering (nothing for ${(silentMs / 1000).toFixed(1)} s); please try again`
        : `The answer of the ${service} service was cut off on the way; please try again`;
    return new RpcCallError({ status: 503, detail, code: 'unavailable' }, subject, { retryAfterSeconds: RETRY_SOON_SECONDS });
  }

  private busDown(subject: string): RpcCallError {
    return new RpcCallError(
      { status: 503, detail: 'The service bus is unreachable right now; please try again shortly', code: 'unavailable' },
      subject,
      { retryAfterSeconds: RETRY_SOON_SECONDS },
    );
  }

  private headersFor(caller: Caller, span?: OpenSpan): Headers {
    return injectTraceContext({ [BUS_HEADERS.requestId]: caller.request_id || randomUUID() }, span?.context);
  }

  /** One request/reply over the bus, measured (assistant_bus_rpc_duration_seconds): the answer's envelope. */
  private async send(subject: string, envelope: RequestEnvelope, headers: Headers, timeoutMs: number) {
    const started = performance.now();
    let outcome: RpcOutcome = 'error';
    try {
      const answer = this.parseEnvelope(subject, await this.bus.request(subject, encode(envelope), headers, timeoutMs));
      if (answer.ok) outcome = 'ok';
      return answer;
    } catch (error) {
      if (error instanceof BusNoRespondersError) {
        outcome = 'no_responders';
        throw new RpcCallError(
          { status: 503, detail: `The ${serviceOf(subject)} service is unavailable, please try again shortly`, code: 'unavailable' },
          subject,
          { retryAfterSeconds: RETRY_SOON_SECONDS },
        );
      }
      if (error instanceof BusUnavailableError) throw this.busDown(subject);
      if (error instanceof BusTimeoutError) {
        outcome = 'timeout';
        throw this.timeoutError(subject, timeoutMs);
      }
      throw error;
    } finally {
      platformMetrics.recordRpc(subject, outcome, (performance.now() - started) / 1000);
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
    const parsed = ReplyEnvelopeSchema.safeParse(decodeOrUndefined(reply.data));
    if (!parsed.success) {
      throw new RpcCallError(
        { status: 502, detail: `The ${serviceOf(subject)} service sent a malformed answer`, code: 'internal' },
        subject,
      );
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
