import { randomUUID } from 'node:crypto';
import { BaseRpcContext, Server, type CustomTransportStrategy, type MessageHandler } from '@nestjs/microservices';
import {
  describeZodError,
  type EventContract,
  type RpcContract,
  type RpcErrorShape,
  type StreamContract,
} from '@app/contracts';
import { EventEnvelopeSchema } from '@app/contracts/events';
import { lastValueFrom, type Observable } from 'rxjs';
import { toRpcError } from '../errors/to-rpc-error';
import type { AppLogger } from '../logging/logger';
import { runWithRequestContext } from '../logging/request-context';
import { withSpan } from '../telemetry/trace-context';
import type { Bus, BusSubscription, IncomingEvent, IncomingRequest } from './bus';
import { BUS_HEADERS, decode, encode, RequestEnvelopeSchema, type ReplyEnvelope } from './codec';

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

  constructor(
    private readonly bus: Bus,
    private readonly options: BusServerOptions,
    private readonly log: AppLogger,
  ) {
    super();
    this.maxDeliver = options.eventMaxDeliver ?? 10;
    this.backoffMs = options.eventBackoffMs ?? [250, 1_000, 5_000, 15_000, 30_000];
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

  private async onRequest(contract: RpcContract | StreamContract, handler: MessageHandler, request: IncomingRequest): Promise<void> {
    const requestId = request.headers[BUS_HEADERS.requestId] || randomUUID();
    const context = { request_id: requestId, subject: contract.subject } as { request_id: string; subject: string; user_id?: string | null };
    const reply = (envelope: ReplyEnvelope) => request.respond(encode(envelope));
    const fail = (shape: RpcErrorShape) => reply({ ok: false, error: shape });

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
          const envelope = RequestEnvelopeSchema.safeParse(raw);
          if (!envelope.success) {
            return fail({ status: 400, detail: `Malformed request: ${describeZodError(envelope.error)}`, code: 'bad_request' });
          }
          const data = contract.request.safeParse(envelope.data.data);
          if (!data.success) return fail({ status: 400, detail: describeZodError(data.error), code: 'bad_request' });
          context.user_id = envelope.data.caller.user_id;
          const input = { caller: envelope.data.caller, data: data.data };
          const busContext = new BusContext([contract.subject, request.headers]);
          try {
            const result$ = this.transformToObservable(await handler(input, busContext)) as Observable<unknown>;
            if (contract.kind === 'rpc') {
              const value = await lastValueFrom(result$, { defaultValue: null });
              const answer = contract.response.safeParse(value);
              if (answer.success) return reply({ ok: true, data: answer.data });
              this.log.error(`${contract.subject} answered outside its contract: ${describeZodError(answer.error)}`, 'BusServer');
              return fail({ status: 500, detail: `Internal error (request ${requestId})`, code: 'internal' });
            }
            return await this.stream(contract, request, result$, fail);
          } catch (error) {
            return fail(this.describeFailure(error, requestId, contract.subject));
          }
        },
        request.headers,
      ),
    );
  }

  /** Acknowledges the call, then publishes each emitted value as a numbered frame to the caller's inbox. */
  private async stream(
    contract: StreamContract,
    request: IncomingRequest,
    result$: Observable<unknown>,
    fail: (shape: RpcErrorShape) => void,
  ): Promise<void> {
    const inbox = request.headers[BUS_HEADERS.streamInbox];
    if (!inbox) return fail({ status: 400, detail: `${contract.subject} is a stream: the caller must give an inbox`, code: 'bad_request' });
    request.respond(encode({ ok: true, data: { accepted: true } }));
    let seq = 0;
    const frame = (envelope: ReplyEnvelope, end = false) =>
      this.bus.publish(inbox, encode(envelope), { [BUS_HEADERS.streamSeq]: String(seq++), ...(end ? { [BUS_HEADERS.streamEnd]: '1' } : {}) });
    await new Promise<void>((resolve) => {
      result$.subscribe({
        next: (value) => {
          const chunk = contract.chunk.safeParse(value);
          if (chunk.success) frame({ ok: true, data: chunk.data });
          else this.log.error(`Dropped a chunk of ${contract.subject} that breaks its contract: ${describeZodError(chunk.error)}`, 'BusServer');
        },
        error: (error: unknown) => {
          frame({ ok: false, error: this.describeFailure(error, request.headers[BUS_HEADERS.requestId] ?? '-', contract.subject) }, true);
          resolve();
        },
        complete: () => {
          frame({ ok: true, data: null }, true);
          resolve();
        },
      });
    });
  }

  private describeFailure(error: unknown, requestId: string, subject: string): RpcErrorShape {
    const { shape, unexpected } = toRpcError(error, requestId);
    if (unexpected) this.log.error(error instanceof Error ? error : String(error), { subject }, 'BusServer');
    return shape;
  }

  private consume(contract: EventContract, handler: MessageHandler): Promise<BusSubscription> {
    const durable = `${this.options.service}__${contract.subject}`.replace(/[^A-Za-z0-9_-]/g, '_');
    return this.bus.consumeEvents(
      { durable, subject: contract.subject, maxDeliver: this.maxDeliver, backoffMs: this.backoffMs },
      (event) => this.onEvent(contract, handler, event),
    );
  }

  private async onEvent(contract: EventContract, handler: MessageHandler, event: IncomingEvent): Promise<'ack' | 'retry'> {
    let raw: unknown;
    try {
      raw = decode(event.data);
    } catch {
      raw = undefined;
    }
    const envelope = EventEnvelopeSchema.safeParse(raw);
    const payload = envelope.success ? contract.payload.safeParse(envelope.data.payload) : undefined;
    if (!envelope.success || !payload?.success) {
      // Retrying cannot fix a malformed event: log it and drop it.
      this.log.error(`Dropped a malformed ${contract.subject} event`, { headers: event.headers }, 'BusServer');
      return 'ack';
    }
    const requestId = event.headers[BUS_HEADERS.requestId] || envelope.data.event_id;
    return runWithRequestContext({ request_id: requestId, subject: contract.subject }, () =>
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
    );
  }
}
