import { AsyncResource } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import {
  BusNoRespondersError,
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

interface Responder {
  queue: string;
  handler: (request: IncomingRequest) => void;
}

interface StoredEvent {
  seq: number;
  subject: string;
  data: Uint8Array;
  headers: Headers;
  messageId: string;
  /** Durable consumers that have not acknowledged it yet: it leaves the log once none is left. */
  waiting: Set<string>;
  settled?: { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void };
}

/** A durable consumer: its queue of events outlives its subscriptions, as on JetStream. */
interface Durable {
  name: string;
  subject: string;
  /** Sequences of the events it still has to acknowledge, oldest first. */
  queue: SeqQueue;
  active?: ActiveSubscription;
  pumping: boolean;
}

interface ActiveSubscription {
  options: EventConsumerOptions;
  handler: (event: IncomingEvent) => Promise<EventOutcome>;
  closed: boolean;
  /** Ends a back-off wait early (the subscription or the bus closes). */
  interrupt?: () => void;
}

/** A first-in first-out queue of sequence numbers: push and shift in constant time. */
class SeqQueue {
  private items: number[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(seq: number): void {
    this.items.push(seq);
  }

  peek(): number | undefined {
    return this.head < this.items.length ? this.items[this.head] : undefined;
  }

  shift(): void {
    this.head++;
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }
}

const DEDUP_WINDOW_MS = 2 * 60_000;
const STARTUP_WINDOW_MS = 30_000;
const MAX_EVENTS = 100_000;
/** Subjects whose responders are remembered at most (a bound, not a limit any deployment reaches). */
const MAX_ROUTES = 10_000;

export interface InProcessBusOptions {
  /** A publish repeating a message id within this window is dropped (JetStream's duplicate window). */
  dedupWindowMs?: number;
  /**
   * Until the host says every consumer is registered (`consumersRegistered()`), or this long after
   * the bus is made, no event leaves the log, so a consumer registering late still gets all of them.
   */
  startupWindowMs?: number;
  /** Events held at most (published, not yet acknowledged by every consumer); a publish beyond is refused. */
  maxEvents?: number;
}

/**
 * A bus whose event log is not durable by itself (it lives in memory): a publisher that must not
 * lose an event (the outbox) keeps it until `eventSettled` resolves.
 */
export interface EventSettlement {
  /** Resolves once every durable consumer has acknowledged the event (or given up on it). */
  eventSettled(messageId: string): Promise<void>;
}

export function settlesEvents(bus: Bus): bus is Bus & EventSettlement {
  return typeof (bus as Partial<EventSettlement>).eventSettled === 'function';
}

/** A request waiting for its first answer, or its deadline (one shared timer structure: no timer of its own). */
class PendingRequest extends Waiting {
  private settled = false;

  constructor(
    private readonly subject: string,
    private readonly timeoutMs: number,
    private readonly deadlines: Deadlines,
    private readonly resolve: (reply: BusReply) => void,
    private readonly reject: (error: Error) => void,
  ) {
    super();
  }

  readonly respond = (reply: Uint8Array, headers?: Headers): void => {
    if (this.settled) return;
    this.settled = true;
    this.deadlines.cancel(this);
    this.resolve({ data: copy(reply), headers: copyHeaders(headers) });
  };

  expire(): void {
    if (this.settled) return;
    this.settled = true;
    this.reject(new BusTimeoutError(this.subject, this.timeoutMs));
  }
}

/** Copies bytes, so that a receiver never shares memory with the sender (as over a socket). */
// (`Buffer.from` copies a short message into Node's shared pool: about ten times cheaper than an
// array of its own, `slice` or `new Uint8Array(bytes)`, each of which allocates its own memory.)
const copy = (bytes: Uint8Array): Uint8Array => Buffer.from(bytes);
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
 * publish de-duplication), inside one process. The event log lives in memory and holds an event
 * only until every durable consumer has acknowledged it; each consumer has its own queue, so a
 * delivery never scans the log. Events are not lost with the process all the same: they come from
 * the services' outboxes, which keep each one until it is settled here (`eventSettled`) and publish
 * what is left again after a restart (consumers apply each event id once).
 */
export class InProcessBus implements Bus, EventSettlement {
  readonly kind = 'in-process' as const;
  private readonly responders = new Map<string, Responder[]>();
  private readonly roundRobin = new Map<string, { next: number }>();
  /** The queue groups serving each subject requested so far (cleared when a responder comes or goes). */
  private readonly routes = new Map<string, { members: Responder[]; counter: { next: number } }[]>();
  private readonly listeners = new Map<string, Set<(m: { data: Uint8Array; headers: Headers }) => void>>();
  /** Events some durable consumer has not acknowledged yet, by sequence (in publish order). */
  private readonly events = new Map<number, StoredEvent>();
  private readonly eventsByMessageId = new Map<string, StoredEvent>();
  /** Message ids published within the de-duplication window, oldest first. */
  private readonly seenMessageIds = new Map<string, number>();
  private readonly durables = new Map<string, Durable>();
  /** The durables interested in each subject published so far (reset when one is added). */
  private readonly interest = new Map<string, Durable[]>();
  private readonly eventOptions: Required<InProcessBusOptions>;
  private starting: boolean;
  private startupTimer?: NodeJS.Timeout;
  private readonly inFlight = new Set<Promise<unknown>>();
  private closed = false;
  private readonly lostListeners = new Set<(error: BusUnavailableError) => void>();
  private seq = 0;
  /** The timeouts of the requests in flight. */
  private readonly deadlines = new Deadlines();

  constructor(
    readonly prefix = '',
    options: InProcessBusOptions = {},
  ) {
    this.eventOptions = {
      dedupWindowMs: options.dedupWindowMs ?? DEDUP_WINDOW_MS,
      startupWindowMs: options.startupWindowMs ?? STARTUP_WINDOW_MS,
      maxEvents: options.maxEvents ?? MAX_EVENTS,
    };
    this.starting = this.eventOptions.startupWindowMs > 0;
    if (this.starting) {
      this.startupTimer = setTimeout(() => this.consumersRegistered(), this.eventOptions.startupWindowMs);
      this.startupTimer.unref();
    }
  }

  private full(subject: string): string {
    return this.prefix ? `${this.prefix}.${subject}` : subject;
  }

  async request(subject: string, data: Uint8Array, headers: Headers, timeoutMs: number): Promise<BusReply> {
    this.assertOpen();
    const target = this.full(subject);
    const group = this.pickResponders(target);
    if (group.length === 0) throw new BusNoRespondersError(subject);
    return new Promise<BusReply>((resolve, reject) => {
      const call = new PendingRequest(subject, timeoutMs, this.deadlines, resolve, reject);
      this.deadlines.add(timeoutMs, call);
      for (const responder of group) {
        this.send(responder.handler, { subject: target, data: copy(data), headers: copyHeaders(headers), respond: call.respond });
      }
    });
  }

  /**
   * One responder per queue group, round robin inside each group (as NATS does). Which groups serve
   * a subject is worked out once and kept until a responder comes or goes: a request then costs a
   * map lookup, not a match of every served pattern.
   */
  private pickResponders(subject: string): Responder[] {
    let groups = this.routes.get(subject);
    if (!groups) {
      const byQueue = new Map<string, Responder[]>();
      for (const [pattern, responders] of this.responders) {
        if (!subjectMatches(pattern, subject)) continue;
        for (const responder of responders) {
          const members = byQueue.get(responder.queue);
          if (members) members.push(responder);
          else byQueue.set(responder.queue, [responder]);
        }
      }
      groups = [...byQueue.entries()].map(([queue, members]) => ({ members, counter: this.counterOf(`${subject}|${queue}`) }));
      if (this.routes.size >= MAX_ROUTES) this.routes.clear();
      this.routes.set(subject, groups);
    }
    const picked: Responder[] = [];
    for (const { members, counter } of groups) picked.push(members[counter.next++ % members.length]);
    return picked;
  }

  /** The round-robin position of a (subject, queue group): kept when the routes are worked out again. */
  private counterOf(key: string): { next: number } {
    let counter = this.roundRobin.get(key);
    if (!counter) this.roundRobin.set(key, (counter = { next: 0 }));
    return counter;
  }

  async serve(subject: string, queue: string, handler: (request: IncomingRequest) => void): Promise<BusSubscription> {
    this.assertOpen();
    const target = this.full(subject);
    const responder: Responder = { queue, handler };
    this.responders.set(target, [...(this.responders.get(target) ?? []), responder]);
    this.routes.clear();
    return {
      close: async () => {
        const left = (this.responders.get(target) ?? []).filter((r) => r !== responder);
        if (left.length) this.responders.set(target, left);
        else this.responders.delete(target);
        this.routes.clear();
      },
    };
  }

  publish(subject: string, data: Uint8Array, headers?: Headers): void {
    if (this.closed) return;
    const target = subject.startsWith('_INBOX.') ? subject : this.full(subject);
    const listeners = this.listeners.get(target);
    if (!listeners) return;
    for (const listener of listeners) this.send(listener, { data: copy(data), headers: copyHeaders(headers) });
  }

  /**
   * Delivered on a later tick, as a socket would (the sender never runs inside the receiver): every
   * request and message sent meanwhile in one go, in order, outside the senders' async contexts.
   */
  private send<M>(receiver: (message: M) => void, message: M): void {
    this.deliveries.push(receiver, message);
    this.delivering ??= setImmediate(this.deliverQueued);
  }

  /** Requests and messages sent and not yet delivered: receiver, message, receiver, message... */
  private deliveries: unknown[] = [];
  private delivering?: NodeJS.Immediate;
  private readonly deliverQueued = AsyncResource.bind(() => {
    const due = this.deliveries;
    this.deliveries = [];
    this.delivering = undefined;
    for (let i = 0; i < due.length; i += 2) {
      try {
        (due[i] as (message: unknown) => void)(due[i + 1]);
      } catch (error) {
        // One receiver's failure is its own (as when each had its own tick): the others still get theirs.
        process.nextTick(() => {
          throw error;
        });
      }
    }
  });

  async subscribe(subject: string, handler: (message: { data: Uint8Array; headers: Headers }) => void): Promise<BusSubscription> {
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
    // Oldest first: stop at the first id still inside the window.
    for (const [id, at] of this.seenMessageIds) {
      if (now - at <= this.eventOptions.dedupWindowMs) break;
      this.seenMessageIds.delete(id);
    }
    if (this.seenMessageIds.has(messageId)) return;
    if (this.events.size >= this.eventOptions.maxEvents) {
      // Refused, not dropped: the outbox keeps the event and offers it again later.
      throw new Error(`The in-process event log already holds ${this.events.size} events its consumers have not acknowledged`);
    }
    this.seenMessageIds.set(messageId, now);
    const target = this.full(subject);
    const interested = this.interestedIn(target);
    const event: StoredEvent = {
      seq: ++this.seq,
      subject: target,
      data: copy(data),
      headers: copyHeaders(headers),
      messageId,
      waiting: new Set(interested.map((durable) => durable.name)),
    };
    this.events.set(event.seq, event);
    this.eventsByMessageId.set(messageId, event);
    for (const durable of interested) {
      durable.queue.push(event.seq);
      this.pump(durable);
    }
    this.trimIfDone(event);
  }

  eventSettled(messageId: string): Promise<void> {
    const event = this.eventsByMessageId.get(messageId);
    if (!event) return Promise.resolve();
    if (!event.settled) {
      let resolve!: () => void;
      let reject!: (error: Error) => void;
      const promise = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      promise.catch(() => undefined);
      event.settled = { promise, resolve, reject };
    }
    return event.settled.promise;
  }

  /** The host has started every service: from now on an event leaves the log once its consumers have it. */
  consumersRegistered(): void {
    if (!this.starting) return;
    this.starting = false;
    clearTimeout(this.startupTimer);
    for (const event of [...this.events.values()]) this.trimIfDone(event);
  }

  /** Events held in memory: published and not yet acknowledged by every durable consumer. */
  get retainedEvents(): number {
    return this.events.size;
  }

  async consumeEvents(options: EventConsumerOptions, handler: (event: IncomingEvent) => Promise<EventOutcome>): Promise<BusSubscription> {
    this.assertOpen();
    const subject = this.full(options.subject);
    let durable = this.durables.get(options.durable);
    if (!durable) {
      // A new durable consumer starts with every event still held (JetStream: deliver all).
      durable = { name: options.durable, subject, queue: new SeqQueue(), pumping: false };
      this.durables.set(durable.name, durable);
      for (const event of this.events.values()) {
        if (!subjectMatches(subject, event.subject)) continue;
        event.waiting.add(durable.name);
        durable.queue.push(event.seq);
      }
      this.interest.clear();
    } else if (durable.subject !== subject) {
      durable.subject = subject;
      this.interest.clear();
    }
    // A durable consumer keeps its position across re-subscriptions, as JetStream does.
    const previous = durable.active;
    if (previous) this.closeSubscription(previous);
    const active: ActiveSubscription = { options: { ...options, subject }, handler, closed: false };
    durable.active = active;
    this.pump(durable);
    return {
      close: async () => this.closeSubscription(active),
    };
  }

  private closeSubscription(active: ActiveSubscription): void {
    active.closed = true;
    active.interrupt?.();
  }

  private interestedIn(subject: string): Durable[] {
    let durables = this.interest.get(subject);
    if (!durables) {
      durables = [...this.durables.values()].filter((durable) => subjectMatches(durable.subject, subject));
      this.interest.set(subject, durables);
    }
    return durables;
  }

  /** Delivers a durable consumer's queue in order, one event at a time, retrying failures with backoff. */
  private pump(durable: Durable): void {
    const active = durable.active;
    if (durable.pumping || this.closed || !active || active.closed || durable.queue.size === 0) return;
    durable.pumping = true;
    const run = (async () => {
      try {
        while (!this.closed && !active.closed && durable.active === active) {
          const seq = durable.queue.peek();
          if (seq === undefined) return;
          const event = this.events.get(seq);
          // Closed before an acknowledgement: it stays first in the queue for the next subscription.
          if (event && !(await this.deliver(active, event))) return;
          durable.queue.shift();
          if (event) this.acknowledge(event, durable.name);
        }
      } finally {
        durable.pumping = false;
      }
    })();
    // A subscription that replaced this one while it delivered takes over from here.
    this.track(run.then(() => this.pump(durable)));
  }

  /** True once the event is acknowledged or given up on (after `maxDeliver`), false if closed first. */
  private async deliver(active: ActiveSubscription, event: StoredEvent): Promise<boolean> {
    const { maxDeliver, backoffMs } = active.options;
    for (let attempt = 1; attempt <= maxDeliver; attempt++) {
      let outcome: EventOutcome;
      try {
        outcome = await active.handler({
          subject: event.subject,
          data: copy(event.data),
          headers: copyHeaders(event.headers),
          deliveryCount: attempt,
        });
      } catch {
        outcome = 'retry';
      }
      if (outcome === 'ack') return true;
      if (active.closed || this.closed) return false;
      const wait = backoffMs[Math.min(attempt - 1, backoffMs.length - 1)] ?? 1000;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => resolve(), wait);
        active.interrupt = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      active.interrupt = undefined;
      if (active.closed || this.closed) return false;
    }
    // JetStream stops delivering after max_deliver: so does this log.
    return true;
  }

  private acknowledge(event: StoredEvent, durable: string): void {
    event.waiting.delete(durable);
    this.trimIfDone(event);
  }

  private trimIfDone(event: StoredEvent): void {
    if (event.waiting.size > 0 || this.starting) return;
    this.events.delete(event.seq);
    if (this.eventsByMessageId.get(event.messageId) === event) this.eventsByMessageId.delete(event.messageId);
    event.settled?.resolve();
  }

  private track(promise: Promise<unknown>): void {
    this.inFlight.add(promise);
    void promise.finally(() => this.inFlight.delete(promise));
  }

  async ping(): Promise<void> {
    this.assertOpen();
  }

  /** In one process the connection never drops; it is gone once drained (then whoever waits is told). */
  get connected(): boolean {
    return !this.closed;
  }

  onConnectionLost(listener: (error: BusUnavailableError) => void): () => void {
    this.lostListeners.add(listener);
    return () => this.lostListeners.delete(listener);
  }

  private connectionClosed(): void {
    const error = new BusUnavailableError('the bus is closed');
    for (const listener of [...this.lostListeners]) listener(error);
    this.lostListeners.clear();
  }

  async drain(): Promise<void> {
    this.closed = true;
    clearTimeout(this.startupTimer);
    for (const durable of this.durables.values()) durable.active?.interrupt?.();
    await Promise.allSettled([...this.inFlight]);
    // Whoever waits for these keeps them (the outbox publishes them again after the restart).
    for (const event of this.events.values()) event.settled?.reject(new Error('The bus closed before every consumer had the event'));
    this.responders.clear();
    this.routes.clear();
    this.listeners.clear();
    this.connectionClosed();
  }

  private assertOpen(): void {
    if (this.closed) throw new BusUnavailableError('the bus is closed');
  }
}
