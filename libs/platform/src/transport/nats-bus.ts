import { connect, createInbox, headers as natsHeaders, nanos, RequestError, TimeoutError, NoRespondersError, type MsgHdrs, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, RetentionPolicy, StorageType, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { EVENT_STREAM_NAME, EVENT_SUBJECT_ROOT } from '@app/contracts';
import {
  BusNoRespondersError,
  BusTimeoutError,
  type Bus,
  type BusReply,
  type BusSubscription,
  type EventConsumerOptions,
  type EventOutcome,
  type Headers,
  type IncomingEvent,
  type IncomingRequest,
} from './bus';

function toNatsHeaders(headers: Headers | undefined): MsgHdrs | undefined {
  if (!headers || Object.keys(headers).length === 0) return undefined;
  const h = natsHeaders();
  for (const [key, value] of Object.entries(headers)) h.set(key, value);
  return h;
}

function fromNatsHeaders(h: MsgHdrs | undefined): Headers {
  const out: Headers = {};
  if (!h) return out;
  for (const key of h.keys()) out[key.toLowerCase()] = h.get(key);
  return out;
}

export interface NatsBusOptions {
  url: string;
  prefix?: string;
  /** Connection name shown by the NATS server (`nats server report connections`). */
  name: string;
  /** How long events are kept in the stream. */
  eventRetentionDays?: number;
}

/** The distributed mode's bus: NATS request/reply with queue groups, and JetStream for events. */
export class NatsBus implements Bus {
  readonly kind = 'nats' as const;
  private readonly subscriptions = new Set<Subscription>();
  private streamReady?: Promise<void>;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    readonly prefix: string,
    private readonly retentionDays: number,
  ) {}

  static async connect(options: NatsBusOptions): Promise<NatsBus> {
    const nc = await connect({
      servers: options.url,
      name: options.name,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
    });
    const jsm = await jetstreamManager(nc);
    return new NatsBus(nc, jetstream(nc), jsm, options.prefix ?? '', options.eventRetentionDays ?? 7);
  }

  private full(subject: string): string {
    return this.prefix ? `${this.prefix}.${subject}` : subject;
  }

  private get streamName(): string {
    return this.prefix ? `${EVENT_STREAM_NAME}_${this.prefix.toUpperCase()}` : EVENT_STREAM_NAME;
  }

  async request(subject: string, data: Uint8Array, headers: Headers, timeoutMs: number): Promise<BusReply> {
    try {
      const reply = await this.nc.request(this.full(subject), data, { timeout: timeoutMs, headers: toNatsHeaders(headers) });
      return { data: reply.data, headers: fromNatsHeaders(reply.headers) };
    } catch (error) {
      if (error instanceof NoRespondersError || (error instanceof RequestError && error.isNoResponders())) {
        throw new BusNoRespondersError(subject);
      }
      if (error instanceof TimeoutError || (error instanceof RequestError && error.cause instanceof TimeoutError)) {
        throw new BusTimeoutError(subject, timeoutMs);
      }
      throw error;
    }
  }

  async serve(subject: string, queue: string, handler: (request: IncomingRequest) => void): Promise<BusSubscription> {
    const sub = this.nc.subscribe(this.full(subject), {
      queue,
      callback: (error, msg) => {
        if (error) return;
        handler({
          subject: msg.subject,
          data: msg.data,
          headers: fromNatsHeaders(msg.headers),
          respond: (reply, replyHeaders) => {
            msg.respond(reply, { headers: toNatsHeaders(replyHeaders) });
          },
        });
      },
    });
    return this.track(sub);
  }

  publish(subject: string, data: Uint8Array, headers?: Headers): void {
    const target = subject.startsWith('_INBOX.') ? subject : this.full(subject);
    this.nc.publish(target, data, { headers: toNatsHeaders(headers) });
  }

  async subscribe(subject: string, handler: (m: { data: Uint8Array; headers: Headers }) => void): Promise<BusSubscription> {
    const target = subject.startsWith('_INBOX.') ? subject : this.full(subject);
    const sub = this.nc.subscribe(target, {
      callback: (error, msg) => {
        if (!error) handler({ data: msg.data, headers: fromNatsHeaders(msg.headers) });
      },
    });
    // Make sure the server knows the subscription before anyone publishes to it.
    await this.nc.flush();
    return this.track(sub);
  }

  createInbox(): string {
    return createInbox();
  }

  /** Creates the event stream, or brings its settings up to date. Safe to call from every replica. */
  ensureEventStream(): Promise<void> {
    this.streamReady ??= (async () => {
      const config = {
        name: this.streamName,
        subjects: [this.full(`${EVENT_SUBJECT_ROOT}.>`)],
        retention: RetentionPolicy.Limits,
        storage: StorageType.File,
        max_age: nanos(this.retentionDays * 24 * 3600 * 1000),
        duplicate_window: nanos(2 * 60 * 1000),
      };
      try {
        await this.jsm.streams.info(this.streamName);
        await this.jsm.streams.update(this.streamName, config);
      } catch {
        await this.jsm.streams.add(config);
      }
    })().catch((error: unknown) => {
      this.streamReady = undefined;
      throw error;
    });
    return this.streamReady;
  }

  async publishEvent(subject: string, data: Uint8Array, headers: Headers, messageId: string): Promise<void> {
    await this.ensureEventStream();
    await this.js.publish(this.full(subject), data, { msgID: messageId, headers: toNatsHeaders(headers) });
  }

  async consumeEvents(
    options: EventConsumerOptions,
    handler: (event: IncomingEvent) => Promise<EventOutcome>,
  ): Promise<BusSubscription> {
    await this.ensureEventStream();
    const durable = this.prefix ? `${this.prefix}_${options.durable}` : options.durable;
    const config = {
      durable_name: durable,
      filter_subject: this.full(options.subject),
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      max_deliver: options.maxDeliver,
      ack_wait: nanos(30_000),
    };
    try {
      await this.jsm.consumers.info(this.streamName, durable);
      await this.jsm.consumers.update(this.streamName, durable, {
        max_deliver: config.max_deliver,
        ack_wait: config.ack_wait,
        filter_subject: config.filter_subject,
      });
    } catch {
      await this.jsm.consumers.add(this.streamName, config);
    }
    const consumer = await this.js.consumers.get(this.streamName, durable);
    const messages = await consumer.consume({ max_messages: 16 });
    const loop = (async () => {
      for await (const msg of messages) {
        const deliveryCount = msg.info.deliveryCount;
        let outcome: EventOutcome;
        try {
          outcome = await handler({ subject: msg.subject, data: msg.data, headers: fromNatsHeaders(msg.headers), deliveryCount });
        } catch {
          outcome = 'retry';
        }
        if (outcome === 'ack') msg.ack();
        else msg.nak(options.backoffMs[Math.min(deliveryCount - 1, options.backoffMs.length - 1)] ?? 1000);
      }
    })();
    return {
      close: async () => {
        await messages.close();
        await loop.catch(() => undefined);
      },
    };
  }

  async ping(): Promise<void> {
    await this.nc.rtt();
  }

  async drain(): Promise<void> {
    if (this.nc.isClosed()) return;
    await this.nc.drain();
  }

  private track(sub: Subscription): BusSubscription {
    this.subscriptions.add(sub);
    return {
      close: async () => {
        this.subscriptions.delete(sub);
        if (!sub.isClosed()) await sub.drain();
      },
    };
  }
}
