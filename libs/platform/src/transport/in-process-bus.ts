import { randomUUID } from 'node:crypto';
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

interface Responder {
  queue: string;
  handler: (request: IncomingRequest) => void;
}

interface StoredEvent {
  seq: number;
  subject: string;
  data: Uint8Array;
  headers: Headers;
}

interface Consumer {
  options: EventConsumerOptions;
  handler: (event: IncomingEvent) => Promise<EventOutcome>;
  /** Sequence of the next event to deliver. */
  cursor: number;
  running: boolean;
  closed: boolean;
}

const DEDUP_WINDOW_MS = 2 * 60_000;

/** Copies bytes, so that a receiver never shares memory with the sender (as over a socket). */
const copy = (bytes: Uint8Array) => new Uint8Array(bytes);
const copyHeaders = (headers: Headers | undefined): Headers => ({ ...(headers ?? {}) });

/** Does a NATS-style subject pattern (`*`, `>`) match a subject? */
export function subjectMatches(pattern: string, subject: string): boolean {
  const p = pattern.split('.');
  const s = subject.split('.');
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '>') return s.length > i;
    if (i >= s.length) return false;
    if (p[i] !== '*' && p[i] !== s[i]) return false;
  }
  return p.length === s.length;
}

/**
 * The embedded mode's bus: the same subjects, the same bytes and the same semantics as NATS
 * (queue groups, no-responders, timeouts, an event log with durable at-least-once consumers and
 * publish de-duplication), inside one process. The event log lives in memory: events still in
 * flight when the process stops are not redelivered after a restart.
 */
export class InProcessBus implements Bus {
  readonly kind = 'in-process' as const;
  private readonly responders = new Map<string, Responder[]>();
  private readonly roundRobin = new Map<string, number>();
  private readonly listeners = new Map<string, Set<(m: { data: Uint8Array; headers: Headers }) => void>>();
  private readonly events: StoredEvent[] = [];
  private readonly seenMessageIds = new Map<string, number>();
  private readonly consumers = new Map<string, Consumer>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private closed = false;
  private seq = 0;

  constructor(readonly prefix = '') {}

  private full(subject: string): string {
    return this.prefix ? `${this.prefix}.${subject}` : subject;
  }

  async request(subject: string, data: Uint8Array, headers: Headers, timeoutMs: number): Promise<BusReply> {
    this.assertOpen();
    const target = this.full(subject);
    const group = this.pickResponders(target);
    if (group.length === 0) throw new BusNoRespondersError(subject);
    return new Promise<BusReply>((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(() => {
        settled = true;
        reject(new BusTimeoutError(subject, timeoutMs));
      }, timeoutMs);
      for (const responder of group) {
        // Delivered on a later tick, as a socket would, so the caller never runs inside the handler.
        setImmediate(() =>
          responder.handler({
            subject: target,
            data: copy(data),
            headers: copyHeaders(headers),
            respond: (reply, replyHeaders) => {
              if (settled) return;
              settled = true;
              clearTimeout(timer);
              resolve({ data: copy(reply), headers: copyHeaders(replyHeaders) });
            },
          }),
        );
      }
    });
  }

  /** One responder per queue group, round robin inside each group (as NATS does). */
  private pickResponders(subject: string): Responder[] {
    const all = [...this.responders.entries()].filter(([pattern]) => subjectMatches(pattern, subject)).flatMap(([, r]) => r);
    const byQueue = new Map<string, Responder[]>();
    for (const responder of all) byQueue.set(responder.queue, [...(byQueue.get(responder.queue) ?? []), responder]);
    return [...byQueue.entries()].map(([queue, members]) => {
      const key = `${subject}|${queue}`;
      const next = (this.roundRobin.get(key) ?? 0) % members.length;
      this.roundRobin.set(key, next + 1);
      return members[next];
    });
  }

  async serve(subject: string, queue: string, handler: (request: IncomingRequest) => void): Promise<BusSubscription> {
    this.assertOpen();
    const target = this.full(subject);
    const responder: Responder = { queue, handler };
    this.responders.set(target, [...(this.responders.get(target) ?? []), responder]);
    return {
      close: async () => {
        const left = (this.responders.get(target) ?? []).filter((r) => r !== responder);
        if (left.length) this.responders.set(target, left);
        else this.responders.delete(target);
      },
    };
  }

  publish(subject: string, data: Uint8Array, headers?: Headers): void {
    if (this.closed) return;
    const target = subject.startsWith('_INBOX.') ? subject : this.full(subject);
    for (const listener of this.listeners.get(target) ?? []) {
      const message = { data: copy(data), headers: copyHeaders(headers) };
      setImmediate(() => listener(message));
    }
  }

  async subscribe(
    subject: string,
    handler: (message: { data: Uint8Array; headers: Headers }) => void,
  ): Promise<BusSubscription> {
    this.assertOpen();
    const target = subject.startsWith('_INBOX.') ? subject : this.full(subject);
    const set = this.listeners.get(target) ?? new Set();
    set.add(handler);
    this.listeners.set(target, set);
    return {
      close: async () => {
        set.delete(handler);
        if (set.size === 0) this.listeners.delete(target);
      },
    };
  }

  createInbox(): string {
    return `_INBOX.${randomUUID().replace(/-/g, '')}`;
  }

  async publishEvent(subject: string, data: Uint8Array, headers: Headers, messageId: string): Promise<void> {
    this.assertOpen();
    const now = Date.now();
    for (const [id, at] of this.seenMessageIds) if (now - at > DEDUP_WINDOW_MS) this.seenMessageIds.delete(id);
    if (this.seenMessageIds.has(messageId)) return;
    this.seenMessageIds.set(messageId, now);
    this.events.push({ seq: ++this.seq, subject: this.full(subject), data: copy(data), headers: copyHeaders(headers) });
    for (const consumer of this.consumers.values()) this.pump(consumer);
  }

  async consumeEvents(
    options: EventConsumerOptions,
    handler: (event: IncomingEvent) => Promise<EventOutcome>,
  ): Promise<BusSubscription> {
    this.assertOpen();
    const existing = this.consumers.get(options.durable);
    // A durable consumer keeps its position across re-subscriptions, as JetStream does.
    const consumer: Consumer = {
      options: { ...options, subject: this.full(options.subject) },
      handler,
      cursor: existing?.cursor ?? 1,
      running: false,
      closed: false,
    };
    this.consumers.set(options.durable, consumer);
    this.pump(consumer);
    return {
      close: async () => {
        consumer.closed = true;
      },
    };
  }

  /** Delivers events to one consumer in order, one at a time, retrying failures with backoff. */
  private pump(consumer: Consumer): void {
    if (consumer.running || consumer.closed) return;
    consumer.running = true;
    const run = (async () => {
      try {
        while (!consumer.closed && !this.closed) {
          const event = this.events.find((e) => e.seq >= consumer.cursor && subjectMatches(consumer.options.subject, e.subject));
          if (!event) {
            consumer.cursor = this.seq + 1;
            return;
          }
          await this.deliver(consumer, event);
          consumer.cursor = event.seq + 1;
        }
      } finally {
        consumer.running = false;
      }
    })();
    this.track(run);
  }

  private async deliver(consumer: Consumer, event: StoredEvent): Promise<void> {
    const { maxDeliver, backoffMs } = consumer.options;
    for (let attempt = 1; attempt <= maxDeliver; attempt++) {
      let outcome: EventOutcome;
      try {
        outcome = await consumer.handler({
          subject: event.subject,
          data: copy(event.data),
          headers: copyHeaders(event.headers),
          deliveryCount: attempt,
        });
      } catch {
        outcome = 'retry';
      }
      if (outcome === 'ack' || consumer.closed || this.closed) return;
      const wait = backoffMs[Math.min(attempt - 1, backoffMs.length - 1)] ?? 1000;
      await new Promise((resolve) => setTimeout(resolve, wait).unref());
    }
  }

  private track(promise: Promise<unknown>): void {
    this.inFlight.add(promise);
    void promise.finally(() => this.inFlight.delete(promise));
  }

  async ping(): Promise<void> {
    this.assertOpen();
  }

  async drain(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.inFlight]);
    this.responders.clear();
    this.listeners.clear();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('The bus is closed');
  }
}
