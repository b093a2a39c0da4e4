import type { EventContract, PayloadOf } from '@app/contracts';
import type { DataSource, EntityManager, EntitySubscriberInterface } from 'typeorm';
import { injectTraceContext, withSpan } from '../telemetry/trace-context';
import type { Bus } from '../transport/bus';
import { settlesEvents } from '../transport/in-process-bus';
import {
  enqueueEvent,
  OUTBOX_WRITTEN,
  prepareEvent,
  SqlOutboxStore,
  type EnqueueOptions,
  type OutboxLag,
  type OutboxRow,
  type PreparedEvent,
} from './outbox';
import { OutboxRelay, type OutboxRelayOptions } from './outbox-relay';

interface OutboxLog {
  warn(message: unknown, context?: string): void;
  error(message: unknown, context?: string): void;
}

const encoder = new TextEncoder();
const TRACE_HEADERS = new Set(['traceparent', 'tracestate']);

/**
 * A service's outbox: `enqueue` writes an event in the caller's transaction; the relay publishes
 * it to the bus once that transaction commits (woken by the commit itself), whatever happens to the
 * broker or to this process in between. `lag()` says how far behind it is (metrics, alerts).
 */
export class Outbox {
  private readonly store: SqlOutboxStore;
  private readonly relay: OutboxRelay;
  private readonly subscriber: EntitySubscriberInterface;

  constructor(
    private readonly dataSource: DataSource,
    bus: Bus,
    log: OutboxLog,
    options: Partial<OutboxRelayOptions> = {},
  ) {
    this.store = new SqlOutboxStore(dataSource);
    this.relay = new OutboxRelay(this.store, (row) => publishRow(bus, row), log, options);
    this.subscriber = {
      afterTransactionCommit: ({ queryRunner }) => {
        if (queryRunner.isTransactionActive || !queryRunner.data?.[OUTBOX_WRITTEN]) return;
        queryRunner.data[OUTBOX_WRITTEN] = false;
        this.relay.wake();
      },
      afterTransactionRollback: ({ queryRunner }) => {
        if (!queryRunner.isTransactionActive && queryRunner.data?.[OUTBOX_WRITTEN]) queryRunner.data[OUTBOX_WRITTEN] = false;
      },
    };
  }

  /** Writes `payload` (checked against the contract) to the outbox, inside `manager`'s transaction. */
  enqueue<C extends EventContract>(
    manager: EntityManager,
    contract: C,
    payload: PayloadOf<C>,
    options: EnqueueOptions = {},
  ): Promise<string> {
    return enqueueEvent(manager, contract, payload, options);
  }

  /**
   * An event to write in the same statement as its cause (one round trip instead of a
   * transaction's five), with `PreparedEvent.insertSql`; call `written()` once that statement
   * succeeded. Checked against the contract here, so a bad event writes nothing.
   */
  prepare<C extends EventContract>(contract: C, payload: PayloadOf<C>, options: EnqueueOptions = {}): PreparedEvent {
    return prepareEvent(contract, payload, options);
  }

  /** A statement outside a transaction wrote to the outbox (see `prepare`): the relay sends it now. */
  written(): void {
    this.relay.wake();
  }

  /** Pending events and the age of the oldest: the `outbox lag` metric. */
  lag(): Promise<OutboxLag> {
    return this.store.lag();
  }

  /** Starts relaying; events left pending by an earlier run (a crash, a broker outage) go first. */
  start(): void {
    if (!this.dataSource.subscribers.includes(this.subscriber)) this.dataSource.subscribers.push(this.subscriber);
    this.relay.start();
  }

  async stop(): Promise<void> {
    const index = this.dataSource.subscribers.indexOf(this.subscriber);
    if (index >= 0) this.dataSource.subscribers.splice(index, 1);
    await this.relay.stop();
  }
}

/**
 * Publishes one row with its event id as `Nats-Msg-Id`, in a producer span that continues the trace
 * of the request that caused the event (its context was stored with the row).
 */
async function publishRow(bus: Bus, row: OutboxRow): Promise<{ settled: Promise<void> }> {
  await withSpan(
    `publish ${row.subject}`,
    'producer',
    { 'messaging.destination': row.subject, 'messaging.message.id': row.eventId },
    async () => {
      const headers = Object.fromEntries(Object.entries(row.headers).filter(([key]) => !TRACE_HEADERS.has(key)));
      await bus.publishEvent(row.subject, encoder.encode(row.body), injectTraceContext(headers), row.eventId);
    },
    row.headers,
  );
  return { settled: settlesEvents(bus) ? bus.eventSettled(row.eventId) : Promise.resolve() };
}
