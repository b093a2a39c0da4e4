import { BaseRpcContext, Server, type CustomTransportStrategy, type MessageHandler } from '@nestjs/microservices';
import {
  describeZodError,
  safeParseContract,
  type EventContract,
  type RpcContract,
  type RpcErrorShape,
  type StreamContract,
} from '@app/contracts';
import { EventEnvelopeSchema } from '@app/contracts/events';
import { isObservable, lastValueFrom, type Observable } from 'rxjs';
import { toRpcError } from '../errors/to-rpc-error';
import type { AppLogger } from '../logging/logger';
import { runWithRequestContext } from '../logging/request-context';
import { withSpan } from '../telemetry/trace-context';
import type { Bus, BusSubscription, IncomingEvent, IncomingRequest } from './bus';
import {
  BUS_HEADERS,
  STREAM_CANCEL_SUFFIX,
  decode,
  decodeOrUndefined,
  encode,
  parseRequestEnvelope,
  RequestEnvelopeSchema,
  type ReplyEnvelope,
} from './codec';

/** The context argument of a handler on our bus: `[subject, headers]`. */
export class BusContext extends BaseRpcContext<[string, Record<string, string>]> {
  getSubject(): string {
    return this.args[0];
  }
  getHeaders(): Record<string, string> {
    return this.args[1];
  }
}

export interface BusServerOptions {
  /** Queue group of the RPC subscriptions and prefix of durable consumer names. */
  service: string;
  eventMaxDeliver?: number;
  eventBackoffMs?: number[];
  /** Interval of the heartbeats sent on an open stream (to callers that understand them). */
  streamHeartbeatMs?: number;
}

const EMPTY = new Uint8Array(0);
/**
 * How long before its caller's deadline a stream is no longer started: its acceptance has to
 * travel back (through NATS, through a busy caller's event loop), and one that came after the
 * deadline would find the request asked for again elsewhere, the work done twice.
 */
export const STREAM_ACCEPT_MARGIN_MS = 250;

/**
 * One request being served: draining waits for it, and ends it when the grace period is over
 * (an RPC answers a 503, a stream ends with a terminal error frame). It answers once: whatever
 * the handler says after it was ended is dropped.
 */
class InFlight {
  private answered = false;
  private endStream?: (shape: RpcErrorShape) => void;

  constructor(private readonly respond: (envelope: ReplyEnvelope) => void) {}

  reply(envelope: ReplyEnvelope): void {
    if (this.answered) return;
    this.answered = true;
    this.respond(envelope);
  }

  /** From now on the request is a stream: ending it ends the stream. */
  streaming(end: (shape: RpcErrorShape) => void): void {
    this.endStream = end;
  }

  abort(shape: RpcErrorShape): void {
    if (this.endStream) this.endStream(shape);
    else this.reply({ ok: false, error: shape });
  }
}

type AnyContract = RpcContract | StreamContract | EventContract;

/**
 * A Nest transport strategy over our bus. It serves every `@RpcHandler` (validating the caller
 * and the request against the contract, answering with the RPC error shape on failure) and
 * consumes every `@EventHandler` through a durable consumer.
 */
export class BusServer extends Server implements CustomTransportStrategy {
  private readonly subscriptions: BusSubscription[] = [];
  private readonly maxDeliver: number;
  private readonly backoffMs: number[];
  private readonly heartbeatMs: number;
  private readonly inFlight = new Set<InFlight>();
  private readonly idleWaiters = new Set<() => void>();

  constructor(
    private readonly bus: Bus,
    private readonly options: BusServerOptions,
    private readonly log: AppLogger,
  ) {
    super();
    this.maxDeliver = options.eventMaxDeliver ?? 10;
    this.backoffMs = options.eventBackoffMs ?? [250, 1_000, 5_000, 15_000, 30_000];
    this.heartbeatMs = options.streamHeartbeatMs ?? 1_000;
  }

  on(): never {
    throw new Error('BusServer does not emit events');
  }

  unwrap<T>(): T {
    return this.bus as T;
  }

  async listen(callback: (error?: unknown) => void): Promise<void> {
    try {
      for (const [pattern, handler] of this.messageHandlers) {
        const contract = handler.extras?.contract as AnyContract | undefined;
        if (!contract) throw new Error(`The handler for "${pattern}" must be declared with @RpcHandler or @EventHandler`);
        if (contract.kind === 'event') {
          this.subscriptions.push(await this.consume(contract, handler));
        } else {
          this.subscriptions.push(
            await this.bus.serve(contract.subject, this.options.service, (request) => void this.onRequest(contract, handler, request)),
          );
        }
      }
      callback();
    } catch (error) {
      callback(error);
    }
  }

  async close(): Promise<void> {
    const subscriptions = this.subscriptions.splice(0);
    await Promise.allSettled(subscriptions.map((s) => s.close()));
  }

  // ---- Draining (SIGTERM): stop taking work, finish what is in flight, end what cannot finish ----

  /**
   * Gives up every subject and event consumer: new requests go to the other replicas (or, when
   * this was the last one, fail at once with "no responders": a 503). Requests already delivered
   * are still served.
   */
  stopAccepting(): Promise<void> {
    return this.close();
  }

  /** Requests being served (reply streams included) and events being handled. */
  get inFlightCount(): number {
    return this.inFlight.size;
  }

  /** Resolves true once nothing is in flight, or false at `deadline` (epoch ms) if something still is. */
  idle(deadline: number): Promise<boolean> {
    if (this.inFlight.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (value: boolean) => {
        clearTimeout(timer);
        this.idleWaiters.delete(onIdle);
        resolve(value);
      };
      const onIdle = () => done(true);
      const timer = setTimeout(() => done(this.inFlight.size === 0), Math.max(0, deadline - Date.now()));
      this.idleWaiters.add(onIdle);
    });
  }

  /**
   * Ends whatever is still in flight with `shape`: an RPC answers it, a stream ends with it as its
   * terminal frame. Answered, they no longer count as in flight (a handler may still be running).
   */
  abortInFlight(shape: RpcErrorShape): number {
    const ended = [...this.inFlight];
    for (const work of ended) {
      work.abort(shape);
      this.settled(work);
    }
    return ended.length;
  }

  private settled(work: InFlight): void {
    this.inFlight.delete(work);
    if (this.inFlight.size === 0) for (const wake of [...this.idleWaiters]) wake();
  }

  private async onRequest(contract: RpcContract | StreamContract, handler: MessageHandler, request: IncomingRequest): Promise<void> {
    // The request id is the `x-request-id` header's when there is one (a caller of an earlier
    // version, a trace), else the envelope's caller's (set below, once the envelope is read; nothing
    // logs before that). A request without either is refused before anything would name it.
    const context = { request_id: request.headers[BUS_HEADERS.requestId] ?? '', subject: contract.subject } as {
      request_id: string;
      subject: string;
      user_id?: string | null;
    };
    const work = new InFlight((envelope) => request.respond(encode(envelope)));
    const reply = (envelope: ReplyEnvelope) => work.reply(envelope);
    const fail = (shape: RpcErrorShape) => reply({ ok: false, error: shape });
    await this.counted(work, () => this.serveRequest(contract, handler, request, context, work, reply, fail));
  }

  /** Runs `run` with `work` counted in flight: draining waits for it (see `idle`). */
  private async counted<T>(work: InFlight, run: () => Promise<T>): Promise<T> {
    this.inFlight.add(work);
    try {
      return await run();
    } finally {
      this.settled(work);
    }
  }

  private async serveRequest(
    contract: RpcContract | StreamContract,
    handler: MessageHandler,
    request: IncomingRequest,
    context: { request_id: string; subject: string; user_id?: string | null },
    work: InFlight,
    reply: (envelope: ReplyEnvelope) => void,
    fail: (shape: RpcErrorShape) => void,
  ): Promise<void> {
    await runWithRequestContext(context, () =>
      withSpan(
        `rpc ${contract.subject}`,
        'server',
        { 'messaging.system': this.bus.kind, 'rpc.method': contract.subject },
        async () => {
          let raw: unknown;
          try {
            raw = decode(request.data);
          } catch {
            return fail({ status: 400, detail: 'Malformed request: not JSON', code: 'bad_request' });
          }
          // The usual envelope passes the hand-written check; anything else goes to the schema.
          let envelope = parseRequestEnvelope(raw);
          if (!envelope) {
            const parsed = RequestEnvelopeSchema.safeParse(raw);
            if (!parsed.success) {
              return fail({ status: 400, detail: `Malformed request: ${describeZodError(parsed.error)}`, code: 'bad_request' });
            }
            envelope = parsed.data;
          }
          // Unsafe text (NUL, unpaired surrogates) is refused whatever the schema: 422 naming the field.
          const data = safeParseContract(contract.request, envelope.data);
          if (!data.success) {
            const detail = describeZodError(data.error);
            return fail(
              data.unsafeText ? { status: 422, detail, code: 'validation_failed' } : { status: 400, detail, code: 'bad_request' },
            );
          }
          context.user_id = envelope.caller.user_id;
          if (!context.request_id) context.request_id = envelope.caller.request_id;
          const requestId = context.request_id;
          // The caller gave up waiting for the stream's acceptance (this process was frozen or too
          // busy) and may have asked another replica: starting now would do the work twice. Nor is
          // one started that close to its deadline: the acceptance would reach the caller after it
          // (STREAM_ACCEPT_MARGIN_MS). Nothing is answered, nothing is done (the handler is not even called).
          const acceptBy = Number(request.headers[BUS_HEADERS.streamAcceptBy]);
          if (contract.kind === 'stream' && acceptBy > 0 && Date.now() > acceptBy - STREAM_ACCEPT_MARGIN_MS) {
            this.log.warn(
              `Did not start a ${contract.subject} stream its caller stops waiting for in ${acceptBy - Date.now()} ms (or stopped, when negative)`,
              'BusServer',
            );
            return;
          }
          const input = { caller: envelope.caller, data: data.data };
          const busContext = new BusContext([contract.subject, request.headers]);
          try {
            const result: unknown = await handler(input, busContext);
            if (contract.kind === 'rpc') {
              // A handler's promise (the usual case) is awaited as it is, without an observable around it.
              const value = isObservable(result) ? await lastValueFrom(result, { defaultValue: null }) : result;
              const answer = contract.response.safeParse(value);
              if (answer.success) return reply({ ok: true, data: answer.data });
              this.log.error(`${contract.subject} answered outside its contract: ${describeZodError(answer.error)}`, 'BusServer');
              return fail({ status: 500, detail: `Internal error (request ${requestId})`, code: 'internal' });
            }
            return await this.stream(contract, request, requestId, this.transformToObservable(result) as Observable<unknown>, work);
          } catch (error) {
            return fail(this.describeFailure(error, requestId, contract.subject));
          }
        },
        request.headers,
      ),
    );
  }

  /**
   * Acknowledges the call, then publishes each emitted value as a numbered frame to the caller's
   * inbox, and a heartbeat every `heartbeatMs` to a caller that asked for them, so that it notices
   * within seconds if this process dies. Exactly one end frame (complete, error, or aborted).
   */
  private async stream(
    contract: StreamContract,
    request: IncomingRequest,
    requestId: string,
    result$: Observable<unknown>,
    work: InFlight,
  ): Promise<void> {
    const inbox = request.headers[BUS_HEADERS.streamInbox];
    if (!inbox)
      return work.reply({
        ok: false,
        error: { status: 400, detail: `${contract.subject} is a stream: the caller must give an inbox`, code: 'bad_request' },
      });
    const heartbeats = request.headers[BUS_HEADERS.streamHeartbeat] === '1';
    // Listening before the call is accepted: a caller that leaves at once is heard.
    let cancel: () => void = () => undefined;
    let cancelled = false;
    const cancellation = await this.bus
      .subscribe(`${inbox}${STREAM_CANCEL_SUFFIX}`, () => {
        cancelled = true;
        cancel();
      })
      .catch(() => null);
    work.reply({ ok: true, data: { accepted: true, ...(heartbeats ? { heartbeat_ms: this.heartbeatMs } : {}) } });
    let seq = 0;
    let ended = false;
    const frame = (envelope: ReplyEnvelope, end = false) => {
      if (ended) return;
      ended = end;
      this.bus.publish(inbox, encode(envelope), {
        [BUS_HEADERS.streamSeq]: String(seq++),
        ...(end ? { [BUS_HEADERS.streamEnd]: '1' } : {}),
      });
    };
    const heartbeat = heartbeats
      ? setInterval(
          () => ended || this.bus.publish(inbox, EMPTY, { [BUS_HEADERS.streamSeq]: String(seq), [BUS_HEADERS.streamHeartbeat]: '1' }),
          this.heartbeatMs,
        )
      : undefined;
    try {
      await new Promise<void>((resolve) => {
        const subscription = result$.subscribe({
          next: (value) => {
            if (contract.hotChunk?.(value)) return frame({ ok: true, data: value });
            const chunk = contract.chunk.safeParse(value);
            if (chunk.success) frame({ ok: true, data: chunk.data });
            else
              this.log.error(
                `Dropped a chunk of ${contract.subject} that breaks its contract: ${describeZodError(chunk.error)}`,
                'BusServer',
              );
          },
          error: (error: unknown) => {
            frame({ ok: false, error: this.describeFailure(error, requestId, contract.subject) }, true);
            resolve();
          },
          complete: () => {
            frame({ ok: true, data: null }, true);
            resolve();
          },
        });
        work.streaming((shape) => {
          subscription.unsubscribe();
          frame({ ok: false, error: shape }, true);
          resolve();
        });
        // The caller left: nobody reads what would follow, so nothing more is made or sent.
        cancel = () => {
          subscription.unsubscribe();
          ended = true;
          resolve();
        };
        if (cancelled) cancel();
      });
    } finally {
      clearInterval(heartbeat);
      await cancellation?.close().catch(() => undefined);
    }
  }

  private describeFailure(error: unknown, requestId: string, subject: string): RpcErrorShape {
    const { shape, unexpected } = toRpcError(error, requestId);
    if (unexpected) this.log.error(error instanceof Error ? error : String(error), { subject }, 'BusServer');
    return shape;
  }

  private consume(contract: EventContract, handler: MessageHandler): Promise<BusSubscription> {
    const durable = `${this.options.service}__${contract.subject}`.replace(/[^A-Za-z0-9_-]/g, '_');
    return this.bus.consumeEvents({ durable, subject: contract.subject, maxDeliver: this.maxDeliver, backoffMs: this.backoffMs }, (event) =>
      this.onEvent(contract, handler, event),
    );
  }

  private async onEvent(contract: EventContract, handler: MessageHandler, event: IncomingEvent): Promise<'ack' | 'retry'> {
    const envelope = EventEnvelopeSchema.safeParse(decodeOrUndefined(event.data));
    const payload = envelope.success ? contract.payload.safeParse(envelope.data.payload) : undefined;
    if (!envelope.success || !payload?.success) {
      // Retrying cannot fix a malformed event: log it and drop it.
      this.log.error(`Dropped a malformed ${contract.subject} event`, { headers: event.headers }, 'BusServer');
      return 'ack';
    }
    const requestId = event.headers[BUS_HEADERS.requestId] || envelope.data.event_id;
    // In flight like a request: draining waits for it, so the service's database is not closed under
    // it. Ended by the grace period, there is nothing to answer: unacknowledged, the event comes back.
    return this.counted(new InFlight(() => undefined), () =>
      runWithRequestContext({ request_id: requestId, subject: contract.subject }, () =>
        withSpan(
          `consume ${contract.subject}`,
          'consumer',
          { 'messaging.destination': contract.subject, 'messaging.delivery_count': event.deliveryCount },
          async () => {
            try {
              const input = { event_id: envelope.data.event_id, occurred_at: envelope.data.occurred_at, payload: payload.data };
              const result$ = this.transformToObservable(await handler(input, new BusContext([contract.subject, event.headers])));
              await lastValueFrom(result$ as Observable<unknown>, { defaultValue: undefined });
              return 'ack' as const;
            } catch (error) {
              const last = event.deliveryCount >= this.maxDeliver;
              this.log.error(
                `${this.options.service} failed to handle ${contract.subject} (delivery ${event.deliveryCount} of ${this.maxDeliver})${last ? ': giving up' : ': will retry'}`,
                error instanceof Error ? error : { error: String(error) },
                'BusServer',
              );
              return 'retry' as const;
            }
          },
          event.headers,
        ),
      ),
    );
  }
}
