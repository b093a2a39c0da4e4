/**
 * The message bus every service talks through. Two implementations share this contract and
 * the same JSON encoding: NATS (with JetStream for events) and an in-process bus for the
 * embedded mode. Nothing above this interface knows which one runs.
 */
export type Headers = Record<string, string>;

export interface BusReply {
  data: Uint8Array;
  headers: Headers;
}

export interface IncomingRequest {
  subject: string;
  data: Uint8Array;
  headers: Headers;
  respond(data: Uint8Array, headers?: Headers): void;
}

export interface IncomingEvent {
  subject: string;
  data: Uint8Array;
  headers: Headers;
  /** 1 on the first delivery, then 2, 3... */
  deliveryCount: number;
}

export type EventOutcome = 'ack' | 'retry';

export interface BusSubscription {
  close(): Promise<void>;
}

export interface EventConsumerOptions {
  /** Durable name: one per (service, handler); replicas of a service share it. */
  durable: string;
  subject: string;
  /** Deliveries before a message is given up on (and logged). */
  maxDeliver: number;
  /** Wait before redelivery after a failure, by attempt (the last value repeats). */
  backoffMs: number[];
}

export class BusNoRespondersError extends Error {
  constructor(readonly subject: string) {
    super(`No service answers ${subject}`);
    this.name = 'BusNoRespondersError';
  }
}

/** The bus connection is down (NATS unreachable or reconnecting): nothing can be sent now. */
export class BusUnavailableError extends Error {
  constructor(detail = 'the connection to the message bus is down') {
    super(`Bus unavailable: ${detail}`);
    this.name = 'BusUnavailableError';
  }
}

/**
 * A request larger than the bus carries in one message (NATS's max_payload, 1 MB by default). An
 * answer that large goes in parts; a request cannot, since its parts could reach different replicas.
 */
export class BusPayloadTooLargeError extends Error {
  constructor(
    readonly subject: string,
    readonly bytes: number,
    readonly maxBytes: number,
  ) {
    super(`${subject}: a request of ${bytes} bytes is over the bus's ${maxBytes}`);
    this.name = 'BusPayloadTooLargeError';
  }
}

export class BusTimeoutError extends Error {
  constructor(
    readonly subject: string,
    readonly timeoutMs: number,
  ) {
    super(`${subject} did not answer within ${timeoutMs} ms`);
    this.name = 'BusTimeoutError';
  }
}

export interface Bus {
  readonly kind: 'nats' | 'in-process';
  /** Prefix applied to every subject, so deployments (or test runs) can share one server. */
  readonly prefix: string;

  request(subject: string, data: Uint8Array, headers: Headers, timeoutMs: number): Promise<BusReply>;
  /** Serves a subject; replicas in the same queue group share the load. */
  serve(subject: string, queue: string, handler: (request: IncomingRequest) => void): Promise<BusSubscription>;
  publish(subject: string, data: Uint8Array, headers?: Headers): void;
  subscribe(subject: string, handler: (message: { data: Uint8Array; headers: Headers }) => void): Promise<BusSubscription>;
  createInbox(): string;

  /** Appends an event to the durable stream; a repeated `messageId` is stored once. */
  publishEvent(subject: string, data: Uint8Array, headers: Headers, messageId: string): Promise<void>;
  consumeEvents(options: EventConsumerOptions, handler: (event: IncomingEvent) => Promise<EventOutcome>): Promise<BusSubscription>;

  /** Round trip to the server, for readiness checks; fails at once while disconnected. */
  ping(): Promise<void>;
  /** False while the connection is down (requests then fail at once with BusUnavailableError). */
  readonly connected: boolean;
  /**
   * Calls `listener` each time the connection is lost: whatever waits for a message (a reply, the
   * next frame of a stream) will not get it and should fail now. Returns the unsubscription.
   */
  onConnectionLost(listener: (error: BusUnavailableError) => void): () => void;
  /** Stops taking new messages, lets in-flight ones finish, then closes. */
  drain(): Promise<void>;
}
