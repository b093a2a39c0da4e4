import { randomUUID } from 'node:crypto';
import {
  healthContract,
  systemCaller,
  type Caller,
  type ChunkOf,
  type RequestOf,
  type ResponseOf,
  type RpcContract,
  type RpcErrorShape,
  type StreamContract,
} from '@app/contracts';
import { RpcCallError } from '../errors/domain-error';
import { platformMetrics, type RpcOutcome } from '../telemetry/metrics';
import { injectTraceContext, startClientSpan, withSpan, type OpenSpan } from '../telemetry/trace-context';
import { BusNoRespondersError, BusPayloadTooLargeError, BusTimeoutError, BusUnavailableError, type Bus, type Headers } from './bus';
import {
  BUS_HEADERS,
  STREAM_CANCEL_SUFFIX,
  decodeOrUndefined,
  encode,
  parseOkReplyEnvelope,
  ReplyEnvelopeSchema,
  StreamAcceptedSchema,
  type ReplyEnvelope,
  type RequestEnvelope,
} from './codec';
import { CircuitBreakers, CircuitOpenError, type CircuitBreakerOptions, type CircuitTicket } from './circuit-breaker';
import { StreamInbox, type Clock, type StreamFailureCause } from './stream-inbox';

export interface CallOptions {
  timeoutMs?: number;
  /** Streams: stops waiting for frames (the generator throws the signal's reason). */
  signal?: AbortSignal;
  /**
   * Streams: how long the service has to accept the stream (a live one does in milliseconds), apart
   * from `timeoutMs`, which then only bounds the wait for each next frame. Past it the stream is
   * answered 503 with `Retry-After`, and the service is told not to start it any more (the
   * `x-stream-accept-by` deadline), so nothing was done.
   */
  acceptTimeoutMs?: number;
  /** Streams with `acceptTimeoutMs`: a stream not accepted in time is asked for once more (another replica takes it). */
  retryUnaccepted?: boolean;
}

export interface RpcClientOptions {
  /** Heartbeats of a stream that may go missing before its producer is taken for dead. */
  heartbeatMisses?: number;
  /** For tests of the stream watchdog. */
  clock?: Clock;
  /** The circuit breakers' settings (one per dependency); `false` turns them off. */
  breaker?: Partial<CircuitBreakerOptions> | false;
}

/** Failures in a row that open a dependency's circuit, and how long it stays open, unless configured. */
export const DEFAULT_BREAKER: CircuitBreakerOptions = { failureThreshold: 3, openMs: 5_000 };

/** Seconds a client is told to wait before trying again when the bus or a service is away. */
const RETRY_SOON_SECONDS = 2;
/** The longest a half-open circuit's probe (the service's health subject) waits for an answer. */
const PROBE_TIMEOUT_MS = 1_500;

function serviceOf(subject: string): string {
  return subject.split('.')[0];
}

const NO_TICKET: CircuitTicket = { answered: () => undefined, failed: () => undefined, released: () => undefined };

/**
 * A call let through a circuit: its ticket, plus whether it has its own outcome (a call whose own
 * timeout opened the circuit keeps its timeout, and is not told the circuit opened).
 */
class GuardedCall implements CircuitTicket {
  private decided = false;

  constructor(
    private readonly ticket: CircuitTicket,
    private readonly onTrip: () => void,
  ) {}

  readonly tripped = (): void => {
    if (!this.decided) this.onTrip();
  };

  answered(): void {
    this.decided = true;
    this.ticket.answered();
  }

  failed(): void {
    this.decided = true;
    this.ticket.failed();
  }

  released(): void {
    this.ticket.released();
  }
}

/** No acceptance of a stream within its deadline: nobody took it (the service died or froze). */
class StreamNotAccepted extends Error {}

/** The caller's side of every RPC: typed by the contract, always with a timeout. */
export class RpcClient {
  private readonly heartbeatMisses: number;
  private readonly breakers?: CircuitBreakers;

  constructor(
    private readonly bus: Bus,
    private readonly defaultTimeoutMs: number,
    private readonly options: RpcClientOptions = {},
  ) {
    this.heartbeatMisses = options.heartbeatMisses ?? 3;
    if (options.breaker !== false) {
      this.breakers = new CircuitBreakers({ ...DEFAULT_BREAKER, probe: (service) => this.probe(service), ...options.breaker });
    }
  }

  /** The client of a process, with its configured timeout, heartbeat tolerance and circuit breakers. */
  static forRuntime(runtime: {
    bus: Bus;
    env: { RPC_TIMEOUT_MS: number; STREAM_HEARTBEAT_MISSES?: number; RPC_BREAKER_FAILURES?: number; RPC_BREAKER_OPEN_MS?: number };
  }): RpcClient {
    return new RpcClient(runtime.bus, runtime.env.RPC_TIMEOUT_MS, {
      heartbeatMisses: runtime.env.STREAM_HEARTBEAT_MISSES,
      breaker: {
        failureThreshold: runtime.env.RPC_BREAKER_FAILURES ?? DEFAULT_BREAKER.failureThreshold,
        openMs: runtime.env.RPC_BREAKER_OPEN_MS ?? DEFAULT_BREAKER.openMs,
      },
    });
  }

  /**
   * Whether calls to the service of `subject` are refused at once right now (its circuit is open:
   * it stopped answering): a caller with something better to do than wait (a reply without
   * memories) can skip it.
   */
  isKnownDown(subject: string): boolean {
    return this.breakers?.isRefusing(serviceOf(subject)) ?? false;
  }

  async call<C extends RpcContract>(contract: C, data: RequestOf<C>, caller: Caller, options: CallOptions = {}): Promise<ResponseOf<C>> {
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    return withSpan(
      `rpc ${contract.subject}`,
      'client',
      { 'messaging.system': this.bus.kind, 'rpc.method': contract.subject },
      async () => {
        const envelope = await this.guarded(contract.subject, (ticket) =>
          this.send(contract.subject, { caller, data }, this.headersFor(), timeoutMs, ticket),
        );
        if (!envelope.ok) throw new RpcCallError(envelope.error, contract.subject);
        return this.parseBody(contract.subject, contract.response, envelope.data) as ResponseOf<C>;
      },
    );
  }

  /**
   * Runs `work` through the circuit of the subject's service: refused at once (503) while it is
   * open, and given up on (503) as soon as it opens while `work` waits.
   */
  private guarded<T>(subject: string, work: (ticket: CircuitTicket) => Promise<T>): Promise<T> {
    if (!this.breakers) return work(NO_TICKET);
    const service = serviceOf(subject);
    // Closed (the usual case): let through at once, without waiting on a promise.
    const ticket = this.breakers.admitAtOnce(service);
    return ticket ? this.watched(subject, service, ticket, work) : this.admitted(subject, service, work);
  }

  private async admitted<T>(subject: string, service: string, work: (ticket: CircuitTicket) => Promise<T>): Promise<T> {
    let ticket: CircuitTicket;
    try {
      ticket = await this.breakers!.admit(service);
    } catch (error) {
      if (error instanceof CircuitOpenError) throw this.circuitOpen(subject, error.retryAfterSeconds);
      throw error;
    }
    return this.watched(subject, service, ticket, work);
  }

  /** Runs `work` with its ticket; the circuit opening meanwhile fails it at once (unless it has its own outcome). */
  private watched<T>(subject: string, service: string, ticket: CircuitTicket, work: (ticket: CircuitTicket) => Promise<T>): Promise<T> {
    const breakers = this.breakers!;
    return new Promise<T>((resolve, reject) => {
      // Over (answered, failed, or given up on when the circuit opened): what comes later does not count.
      const done = () => {
        breakers.offTrip(service, call.tripped);
        ticket.released(); // a no-op when the outcome was reported
      };
      const call = new GuardedCall(ticket, () => {
        done();
        reject(this.circuitOpen(subject, breakers.retryAfterSeconds(service)));
      });
      breakers.onTrip(service, call.tripped);
      let running: Promise<T>;
      try {
        running = work(call);
      } catch (error) {
        done();
        return reject(error);
      }
      running.then(
        (value) => {
          done();
          resolve(value);
        },
        (error: unknown) => {
          done();
          reject(error);
        },
      );
    });
  }

  /**
   * Whether a service whose circuit is open answers again: its health subject, with a short
   * deadline. Any answer will do (a report of a database away too), and so will nobody serving it
   * (calls then fail at once, and go through as soon as a process serves it again).
   */
  private async probe(service: string): Promise<boolean> {
    const timeoutMs = Math.min(PROBE_TIMEOUT_MS, this.defaultTimeoutMs);
    const subject = healthContract(service).subject;
    try {
      await this.bus.request(subject, encode({ caller: systemCaller(`circuit-probe-${randomUUID()}`), data: {} }), {}, timeoutMs);
      return true;
    } catch (error) {
      return error instanceof BusNoRespondersError;
    }
  }

  private circuitOpen(subject: string, retryAfterSeconds: number): RpcCallError {
    return new RpcCallError(
      {
        status: 503,
        detail: `The ${serviceOf(subject)} service is not answering right now; please try again shortly`,
        code: 'unavailable',
      },
      subject,
      { retryAfterSeconds },
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
        const accepted = await this.accept(contract.subject, { caller, data }, this.headersFor(span), inbox, timeoutMs, options);
        if (!accepted.ok) throw new RpcCallError(accepted.error, contract.subject);
        open = true;
        const terms = StreamAcceptedSchema.safeParse(accepted.data);
        if (terms.success && terms.data.heartbeat_ms) frames.watch(terms.data.heartbeat_ms, this.heartbeatMisses);
        for (;;) {
          const frame = await frames.take();
          // The frequent chunks (a reply's deltas) skip the schemas: the hand-written check is theirs.
          const raw = contract.hotChunk && !frame.end ? (decodeOrUndefined(frame.data) as { ok?: unknown; data?: unknown }) : undefined;
          if (raw?.ok === true && contract.hotChunk!(raw.data)) {
            yield raw.data as ChunkOf<C>;
            continue;
          }
          const envelope = raw === undefined ? this.parseEnvelope(contract.subject, frame) : this.parseDecoded(contract.subject, raw);
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

  /**
   * Asks the service to stream to `inbox` and waits for its acceptance: within `acceptTimeoutMs`
   * when given (the service is told the deadline and starts nothing past it), once more when
   * `retryUnaccepted`; else within the stream's `timeoutMs`.
   */
  private async accept(
    subject: string,
    envelope: RequestEnvelope,
    baseHeaders: Headers,
    inbox: string,
    timeoutMs: number,
    options: CallOptions,
  ) {
    // Asks for heartbeats; a service of an older version ignores the header and sends none.
    const headers = { ...baseHeaders, [BUS_HEADERS.streamInbox]: inbox, [BUS_HEADERS.streamHeartbeat]: '1' };
    const acceptMs = options.acceptTimeoutMs;
    if (acceptMs === undefined) return this.guarded(subject, (ticket) => this.send(subject, envelope, headers, timeoutMs, ticket));
    const attempts = options.retryUnaccepted ? 2 : 1;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.guarded(subject, (ticket) =>
          this.send(subject, envelope, { ...headers, [BUS_HEADERS.streamAcceptBy]: String(Date.now() + acceptMs) }, acceptMs, ticket, true),
        );
      } catch (error) {
        if (!(error instanceof StreamNotAccepted)) throw error;
        if (attempt < attempts && !options.signal?.aborted) continue;
        throw new RpcCallError(
          {
            status: 503,
            detail: `The ${serviceOf(subject)} service did not take the request (no answer within ${acceptMs} ms); please try again`,
            code: 'unavailable',
          },
          subject,
          { retryAfterSeconds: RETRY_SOON_SECONDS },
        );
      }
    }
  }

  private async subscribe(subject: string, inbox: string, frames: StreamInbox) {
    try {
      return await this.bus.subscribe(inbox, (message) => frames.receive(message.headers, message.data));
    } catch (error) {
      if (error instanceof BusUnavailableError || !this.bus.connected) throw this.busDown(subject);
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

  /**
   * A call's headers: the trace context, when something traces (nothing otherwise). The request id
   * is not repeated here: it is the envelope's (`caller.request_id`, required by its schema), which the
   * service takes when no `x-request-id` header came. Over NATS a message without headers is a plain
   * `PUB` the client neither encodes nor parses headers for (a few µs of a call's CPU on each end).
   */
  private headersFor(span?: OpenSpan): Headers {
    return injectTraceContext({}, span?.context);
  }

  /**
   * One request/reply over the bus, measured (assistant_bus_rpc_duration_seconds): the answer's
   * envelope. Tells the circuit how it went; `acceptance` (a stream's): a timeout is StreamNotAccepted.
   */
  private async send(
    subject: string,
    envelope: RequestEnvelope,
    headers: Headers,
    timeoutMs: number,
    ticket: CircuitTicket,
    acceptance = false,
  ) {
    const started = performance.now();
    let outcome: RpcOutcome = 'error';
    try {
      const reply = await this.bus.request(subject, encode(envelope), headers, timeoutMs);
      ticket.answered();
      const answer = this.parseEnvelope(subject, reply);
      if (answer.ok) outcome = 'ok';
      return answer;
    } catch (error) {
      // A timeout is what the circuit saves callers from; nobody serving the subject fails at once
      // anyway, and must not hold the circuit open once a process serves it again.
      if (error instanceof BusTimeoutError) ticket.failed();
      if (error instanceof BusNoRespondersError) {
        outcome = 'no_responders';
        throw new RpcCallError(
          { status: 503, detail: `The ${serviceOf(subject)} service is unavailable, please try again shortly`, code: 'unavailable' },
          subject,
          { retryAfterSeconds: RETRY_SOON_SECONDS },
        );
      }
      if (error instanceof BusUnavailableError) throw this.busDown(subject);
      if (error instanceof BusPayloadTooLargeError) {
        throw new RpcCallError(
          {
            status: 413,
            detail: `This request is too large to pass on to the ${serviceOf(subject)} service (at most ${Math.floor(error.maxBytes / 1024)} KB).`,
            code: 'payload_too_large',
          },
          subject,
        );
      }
      if (error instanceof BusTimeoutError) {
        outcome = 'timeout';
        throw acceptance ? new StreamNotAccepted() : this.timeoutError(subject, timeoutMs);
      }
      // Whatever else the transport threw while its connection is down is the bus being away, not a bug.
      if (!this.bus.connected) throw this.busDown(subject);
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
    return new RpcCallError(shape, subject, { retryAfterSeconds: RETRY_SOON_SECONDS });
  }

  private parseEnvelope(subject: string, reply: { data: Uint8Array }) {
    return this.parseDecoded(subject, decodeOrUndefined(reply.data));
  }

  private parseDecoded(subject: string, decoded: unknown): ReplyEnvelope {
    // An answer (the usual case) passes the hand-written check; an error, or anything else, the schema.
    const answer = parseOkReplyEnvelope(decoded);
    if (answer) return answer;
    const parsed = ReplyEnvelopeSchema.safeParse(decoded);
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
