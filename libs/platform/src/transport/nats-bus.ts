import {
  ClosedConnectionError,
  connect,
  createInbox,
  DrainingConnectionError,
  headers as natsHeaders,
  nanos,
  type Msg,
  type MsgHdrs,
  type NatsConnection,
  type Subscription,
} from '@nats-io/transport-node';
import {
  AckPolicy,
  DeliverPolicy,
  DiscardPolicy,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type JetStreamClient,
  type JetStreamManager,
} from '@nats-io/jetstream';
import { EVENT_STREAM_NAME, EVENT_SUBJECT_ROOT } from '@app/contracts';
import {
  BusNoRespondersError,
  BusPayloadTooLargeError,
  BusTimeoutError,
  BusUnavailableError,
  type Bus,
  type BusReply,
  type BusSubscription,
  type EventConsumerOptions,
  type EventOutcome,
  type Headers,
  type IncomingEvent,
  type IncomingRequest,
} from './bus';
import { Deadlines, Waiting } from './deadlines';

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

function unsubscribeQuietly(sub: Subscription): void {
  try {
    sub.unsubscribe();
  } catch {
    // The connection is closed: so is the subscription.
  }
}

/**
 * A reply larger than one NATS message (the server's max_payload, 1 MB by default) goes as parts,
 * in order, each saying how many there are in this header; the caller puts them back together.
 * Only such replies carry it: an ordinary one has no headers to build or parse.
 */
export const REPLY_PARTS_HEADER = 'assistant-reply-parts';
/** Room kept in each part for its subject and headers. */
const PART_HEADROOM_BYTES = 8 * 1024;

/** A request waiting for its reply (on the bus's one reply subscription) or for its deadline. */
class NatsRequest extends Waiting {
  /** The parts of a reply that comes in several, so far. */
  parts?: Uint8Array[];

  constructor(
    readonly token: string,
    readonly subject: string,
    readonly timeoutMs: number,
    private readonly pending: Map<string, NatsRequest>,
    readonly resolve: (reply: BusReply) => void,
    readonly reject: (error: Error) => void,
  ) {
    super();
  }

  expire(): void {
    if (this.pending.get(this.token) !== this) return;
    this.pending.delete(this.token);
    this.reject(new BusTimeoutError(this.subject, this.timeoutMs));
  }
}

export interface NatsBusOptions {
  url: string;
  prefix?: string;
  /** Connection name shown by the NATS server (`nats server report connections`). */
  name: string;
  /** How long events are kept in the stream (its max_age). */
  eventRetentionDays?: number;
  /**
   * The stream's size limit (max_bytes, default 1 GiB). When it is full a publish is refused
   * (discard new): the outboxes keep the events and retry, none is dropped unseen.
   */
  eventMaxBytes?: number;
  /** Client pings: a server that stops answering is given up on after `pingIntervalMs` x 2. */
  pingIntervalMs?: number;
  /**
   * Replicas of the event stream when this bus creates it (JETSTREAM_REPLICAS, default 1). An
   * existing stream keeps its own count: whoever scaled it (the k8s Job nats-streams) is not undone.
   */
  eventReplicas?: number;
}

/**
 * The event stream's duplicate window: a message published again with the same Nats-Msg-Id within
 * it is dropped (an outbox relay that retries). Processed-event ids are kept past it (see
 * processedEventHorizonMs).
 */
export const EVENT_DUPLICATE_WINDOW_MS = 2 * 60 * 1000;

/** The distributed mode's bus: NATS request/reply with queue groups, and JetStream for events. */
export class NatsBus implements Bus {
  readonly kind = 'nats' as const;
  private readonly subscriptions = new Set<Subscription>();
  private readonly lostListeners = new Set<(error: BusUnavailableError) => void>();
  private streamReady?: Promise<void>;
  private up = true;
  /** Requests waiting for their reply, by token (the last part of their reply subject). */
  private readonly pending = new Map<string, NatsRequest>();
  private readonly deadlines = new Deadlines();
  private nextToken = 0;
  private replyPrefix?: string;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    readonly prefix: string,
    private readonly retentionDays: number,
    private readonly eventReplicas: number,
    private readonly eventMaxBytes: number,
  ) {}

  static async connect(options: NatsBusOptions): Promise<NatsBus> {
    const nc = await connect({
      servers: options.url,
      name: options.name,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
      pingInterval: options.pingIntervalMs ?? 5_000,
      maxPingOut: 2,
      // No stack captured up front for every request (two Error objects per call: about an eighth of
      // a request's CPU here): a failure is turned into a Bus*Error below and its stack is ours.
      noAsyncTraces: true,
    });
    const jsm = await jetstreamManager(nc);
    const bus = new NatsBus(
      nc,
      jetstream(nc),
      jsm,
      options.prefix ?? '',
      options.eventRetentionDays ?? 7,
      options.eventReplicas ?? 1,
      options.eventMaxBytes ?? 1_073_741_824,
    );
    bus.watchConnection();
    return bus;
  }

  get connected(): boolean {
    return this.up && !this.nc.isClosed();
  }

  onConnectionLost(listener: (error: BusUnavailableError) => void): () => void {
    this.lostListeners.add(listener);
    return () => this.lostListeners.delete(listener);
  }

  /** Follows the connection: down on a disconnect (or a server that stopped answering pings), up on reconnect. */
  private watchConnection(): void {
    void (async () => {
      for await (const status of this.nc.status()) {
        if (status.type === 'disconnect') this.lost('the connection to NATS was lost (reconnecting)');
        else if (status.type === 'staleConnection') this.lost('NATS stopped answering (reconnecting)');
        else if (status.type === 'reconnect') this.up = true;
      }
    })().catch(() => undefined);
    void this.nc.closed().then(() => this.lost('the connection to NATS is closed'));
  }

  private lost(detail: string): void {
    if (!this.up) return;
    this.up = false;
    const error = new BusUnavailableError(detail);
    this.failPending(error);
    for (const listener of [...this.lostListeners]) listener(error);
  }

  private unavailable(): BusUnavailableError {
    return new BusUnavailableError(
      this.nc.isClosed() ? 'the connection to NATS is closed' : 'the connection to NATS is down (reconnecting)',
    );
  }

  private full(subject: string): string {
    return this.prefix ? `${this.prefix}.${subject}` : subject;
  }

  private get streamName(): string {
    return this.prefix ? `${EVENT_STREAM_NAME}_${this.prefix.toUpperCase()}` : EVENT_STREAM_NAME;
  }

  /**
   * Fails at once while the connection is down, and as soon as it drops while waiting for the answer.
   * The reply comes to the bus's one reply subscription (`<inbox>.*`, a token per request), as with
   * `nc.request`'s muxed inbox, but with a shared timer structure for the deadlines and nothing else
   * made per call (the client's request makes a timer, three promises and an Error it throws away).
   */
  request(subject: string, data: Uint8Array, headers: Headers, timeoutMs: number): Promise<BusReply> {
    if (!this.connected) return Promise.reject(this.unavailable());
    const replyPrefix = this.replyPrefix ?? this.subscribeReplies();
    const token = (this.nextToken++).toString(36);
    return new Promise<BusReply>((resolve, reject) => {
      const call = new NatsRequest(token, subject, timeoutMs, this.pending, resolve, reject);
      this.pending.set(token, call);
      this.deadlines.add(timeoutMs, call);
      this.send(this.full(subject), data, { reply: `${replyPrefix}${token}`, headers: toNatsHeaders(headers) }, call);
    });
  }

  /** The one subscription every reply comes to: `<inbox>.<token>`. Returns the subjects' prefix. */
  private subscribeReplies(): string {
    const prefix = `${createInbox()}.`;
    this.nc.subscribe(`${prefix}*`, {
      callback: (error, msg) => {
        if (!error) this.replied(msg, prefix.length);
      },
    });
    this.replyPrefix = prefix;
    return prefix;
  }

  private replied(msg: Msg, prefixLength: number): void {
    const call = this.pending.get(msg.subject.slice(prefixLength));
    if (!call) return; // timed out, or failed with the connection
    const parts = msg.headers?.get(REPLY_PARTS_HEADER);
    if (parts) {
      // A part of a large reply: kept (copied: the message's bytes are the client's) until the last comes.
      (call.parts ??= []).push(Uint8Array.prototype.slice.call(msg.data));
      if (call.parts.length < Number(parts)) return;
      this.settle(call);
      const headers = fromNatsHeaders(msg.headers);
      delete headers[REPLY_PARTS_HEADER];
      call.resolve({ data: Buffer.concat(call.parts), headers });
      return;
    }
    this.settle(call);
    // The server's answer when nobody serves the subject: an empty message with status 503.
    if (msg.data.length === 0 && msg.headers?.code === 503) call.reject(new BusNoRespondersError(call.subject));
    else call.resolve({ data: msg.data, headers: fromNatsHeaders(msg.headers) });
  }

  /** The request has its outcome: no longer waiting for a reply, its deadline no longer counts. */
  private settle(call: NatsRequest): void {
    this.pending.delete(call.token);
    this.deadlines.cancel(call);
  }

  /** Fails every request waiting for a reply (the connection is gone: the replies will not come). */
  private failPending(error: BusUnavailableError): void {
    for (const call of this.pending.values()) {
      this.deadlines.cancel(call);
      call.reject(error);
    }
    this.pending.clear();
  }

  /** Publishes a request (failing it when that cannot be done) or a reply (dropped then: its caller times out). */
  private send(subject: string, data: Uint8Array, options: { reply?: string; headers?: MsgHdrs }, call?: NatsRequest): void {
    try {
      this.nc.publish(subject, data, options);
    } catch (error) {
      if (!call || this.pending.get(call.token) !== call) return;
      this.settle(call);
      call.reject(
        error instanceof ClosedConnectionError || error instanceof DrainingConnectionError
          ? this.unavailable()
          : (this.tooLarge(call.subject, data, error) ?? (error as Error)),
      );
    }
  }

  /** The error for a request the server would not take for its size (the client refused to publish it), if that is why. */
  private tooLarge(subject: string, data: Uint8Array, error: unknown): BusPayloadTooLargeError | undefined {
    // nats.js says so only in its message (an InvalidArgumentError, as for any other bad argument).
    if (!(error instanceof Error) || !error.message.includes('max_payload')) return undefined;
    return new BusPayloadTooLargeError(subject, data.length, this.nc.info?.max_payload ?? data.length);
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
            if (msg.reply) this.reply(msg.reply, reply, replyHeaders);
          },
        });
      },
    });
    return this.track(sub);
  }

  /** Answers a request: in one message, or in parts when it is larger than the server takes (REPLY_PARTS_HEADER). */
  private reply(subject: string, data: Uint8Array, headers: Headers | undefined): void {
    const partBytes = Math.max(PART_HEADROOM_BYTES, (this.nc.info?.max_payload ?? 1024 * 1024) - PART_HEADROOM_BYTES);
    if (data.length <= partBytes) {
      this.send(subject, data, { headers: toNatsHeaders(headers) });
      return;
    }
    const count = Math.ceil(data.length / partBytes);
    const partHeaders = toNatsHeaders({ ...headers, [REPLY_PARTS_HEADER]: String(count) });
    for (let start = 0; start < data.length; start += partBytes)
      this.send(subject, data.subarray(start, start + partBytes), { headers: partHeaders });
  }

  /** Fire and forget, as NATS is: buffered while reconnecting, dropped once the connection is closed. */
  publish(subject: string, data: Uint8Array, headers?: Headers): void {
    const target = subject.startsWith('_INBOX.') ? subject : this.full(subject);
    try {
      this.nc.publish(target, data, { headers: toNatsHeaders(headers) });
    } catch (error) {
      if (!(error instanceof ClosedConnectionError || error instanceof DrainingConnectionError)) throw error;
    }
  }

  async subscribe(subject: string, handler: (m: { data: Uint8Array; headers: Headers }) => void): Promise<BusSubscription> {
    const target = subject.startsWith('_INBOX.') ? subject : this.full(subject);
    const sub = this.nc.subscribe(target, {
      callback: (error, msg) => {
        if (!error) handler({ data: msg.data, headers: fromNatsHeaders(msg.headers) });
      },
    });
    const subscription = this.track(sub);
    // Make sure the server knows the subscription before anyone publishes to it (not waiting for a
    // reconnect that may take long: a connection that drops meanwhile fails the subscription).
    let stopWatching = () => {};
    try {
      await Promise.race([
        this.nc.flush(),
        new Promise<never>((_, reject) => {
          if (!this.connected) reject(this.unavailable());
          stopWatching = this.onConnectionLost(reject);
        }),
      ]);
    } catch (error) {
      await subscription.close().catch(() => undefined);
      throw error instanceof ClosedConnectionError || error instanceof DrainingConnectionError ? this.unavailable() : error;
    } finally {
      stopWatching();
    }
    return subscription;
  }

  createInbox(): string {
    return createInbox();
  }

  /**
   * Creates the event stream (with `eventReplicas` replicas), or brings its settings up to date,
   * merged into its current ones: its replica count is left as it is. Safe to call from every replica.
   */
  ensureEventStream(): Promise<void> {
    this.streamReady ??= (async () => {
      const config = {
        name: this.streamName,
        subjects: [this.full(`${EVENT_SUBJECT_ROOT}.>`)],
        retention: RetentionPolicy.Limits,
        storage: StorageType.File,
        max_age: nanos(this.retentionDays * 24 * 3600 * 1000),
        max_bytes: this.eventMaxBytes,
        discard: DiscardPolicy.New,
        duplicate_window: nanos(EVENT_DUPLICATE_WINDOW_MS),
      };
      try {
        await this.jsm.streams.info(this.streamName);
        await this.jsm.streams.update(this.streamName, config);
      } catch {
        await this.jsm.streams.add({ ...config, num_replicas: this.eventReplicas });
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

  async consumeEvents(options: EventConsumerOptions, handler: (event: IncomingEvent) => Promise<EventOutcome>): Promise<BusSubscription> {
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
    let closing = false;
    const loop = (async () => {
      for await (const msg of messages) {
        // Delivered but not started when the consumer closed (a shutdown): given back at once, for
        // another replica or the next start, rather than handled now or left to its ack deadline.
        if (closing) {
          msg.nak();
          continue;
        }
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
      // Nothing more is pulled or started, as with the in-process bus. The event being handled, if
      // any, is not waited for here: it is the server's in flight, drained within the shutdown's
      // plan (before, closing waited for every delivered event to be handled, deadlines or not:
      // up to 16 slow handlers in a row on a shutdown).
      close: async () => {
        closing = true;
        void messages.close();
        void loop.catch(() => undefined);
      },
    };
  }

  async ping(): Promise<void> {
    if (!this.connected) throw this.unavailable();
    await this.nc.rtt();
  }

  async drain(): Promise<void> {
    if (this.nc.isClosed()) return;
    await this.nc.drain();
  }

  /** Closing drains the subscription (what was delivered is still handled), or drops it at once while disconnected. */
  private track(sub: Subscription): BusSubscription {
    this.subscriptions.add(sub);
    return {
      close: async () => {
        this.subscriptions.delete(sub);
        if (sub.isClosed()) return;
        if (!this.connected) return unsubscribeQuietly(sub);
        let stopWatching = () => {};
        const dropped = new Promise<void>((resolve) => {
          stopWatching = this.onConnectionLost(() => resolve());
        });
        try {
          await Promise.race([sub.drain(), dropped]);
        } catch {
          // Closed meanwhile: nothing left to drain.
        } finally {
          stopWatching();
        }
        if (!sub.isClosed()) unsubscribeQuietly(sub);
      },
    };
  }
}
