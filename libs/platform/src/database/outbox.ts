import { randomUUID } from 'node:crypto';
import type { EventContract, PayloadOf } from '@app/contracts';
import { USER_EVENTS, type EventEnvelope } from '@app/contracts/events';
import type { DataSource, EntityManager } from 'typeorm';
import { currentRequestContext } from '../logging/request-context';
import { injectTraceContext } from '../telemetry/trace-context';
import type { Headers } from '../transport/bus';
import { BUS_HEADERS } from '../transport/codec';
import { sqlMigration } from './sql-migration';

/**
 * The transactional outbox: an event a service owes is a row written in the same transaction as the
 * change that causes it, then relayed to the bus (outbox-relay.ts). The envelope is kept as `json`
 * (its exact text: a user's words may hold characters `jsonb` refuses, such as \u0000).
 */
export const CreateOutbox1765600000000 = sqlMigration('CreateOutbox1765600000000', {
  up: [
    `CREATE TABLE IF NOT EXISTS outbox (
      id bigserial PRIMARY KEY,
      event_id text NOT NULL UNIQUE,
      subject text NOT NULL,
      envelope json NOT NULL,
      headers json NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      last_error text,
      sent_at timestamptz
    )`,
    'CREATE INDEX IF NOT EXISTS outbox_pending_idx ON outbox (id) WHERE sent_at IS NULL',
    'CREATE INDEX IF NOT EXISTS outbox_sent_idx ON outbox (sent_at) WHERE sent_at IS NOT NULL',
  ],
  down: ['DROP TABLE IF EXISTS outbox'],
});

/** Set on a transaction's query runner when it wrote to the outbox: the relay wakes when it commits. */
export const OUTBOX_WRITTEN = 'outboxWritten';

export interface EnqueueOptions {
  /** A stable id when the same fact may be enqueued twice (a retried handler): it is stored once. */
  eventId?: string;
  /**
   * What to do when `eventId` is already in the outbox: keep the row as it is (default), or send it
   * again (a confirmation that is said again on every request for it).
   */
  onDuplicate?: 'keep' | 'resend';
}

/**
 * An event made ready for the outbox: its envelope checked against the contract, its headers
 * carrying the current request and trace. `insertSql` writes it as part of a larger statement.
 */
export interface PreparedEvent {
  eventId: string;
  /** The four parameters `insertSql` refers to, in order. */
  params: [string, string, string, string];
  /**
   * `INSERT INTO outbox ... SELECT ... FROM <from>`, its parameters numbered from `$first`: a
   * CTE part that writes the event once for each row of `from` (none: the cause did not happen).
   */
  insertSql(first: number, from: string): string;
}

export function prepareEvent<C extends EventContract>(contract: C, payload: PayloadOf<C>, options: EnqueueOptions = {}): PreparedEvent {
  const envelope: EventEnvelope = {
    event_id: options.eventId ?? randomUUID(),
    occurred_at: new Date().toISOString(),
    payload: contract.payload.parse(payload),
  };
  const headers = injectTraceContext({
    [BUS_HEADERS.requestId]: currentRequestContext()?.request_id ?? envelope.event_id,
    [BUS_HEADERS.eventSubject]: contract.subject,
  });
  const onConflict =
    options.onDuplicate === 'resend'
      ? 'DO UPDATE SET envelope = EXCLUDED.envelope, headers = EXCLUDED.headers, sent_at = NULL, attempts = 0, next_attempt_at = now(), last_error = NULL'
      : 'DO NOTHING';
  return {
    eventId: envelope.event_id,
    params: [envelope.event_id, contract.subject, JSON.stringify(envelope), JSON.stringify(headers)],
    insertSql: (first, from) =>
      `INSERT INTO outbox (event_id, subject, envelope, headers) SELECT $${first}, $${first + 1}, $${first + 2}::json, $${first + 3}::json FROM ${from} ON CONFLICT (event_id) ${onConflict}`,
  };
}

/**
 * Writes an event to the outbox inside the caller's transaction: it is sent if and only if the
 * transaction commits. The payload is checked against the contract here, not at relay time, so a
 * bad event fails the change that causes it. Returns the event id.
 */
export async function enqueueEvent<C extends EventContract>(
  manager: EntityManager,
  contract: C,
  payload: PayloadOf<C>,
  options: EnqueueOptions = {},
): Promise<string> {
  const runner = manager.queryRunner;
  if (!runner?.isTransactionActive) {
    throw new Error(`${contract.subject} must be enqueued inside the transaction of the change that causes it`);
  }
  const event = prepareEvent(contract, payload, options);
  await manager.query(event.insertSql(1, '(SELECT 1) AS one'), event.params);
  runner.data = { ...(runner.data ?? {}), [OUTBOX_WRITTEN]: true };
  return event.eventId;
}

/**
 * The account's own lifecycle (created, deleted, purged, merged): ids only, no words, and the
 * deletion and its confirmations must still reach the other services after a purge.
 */
const USER_LIFECYCLE_SUBJECTS: string[] = Object.values(USER_EVENTS).map((event) => event.subject);

/**
 * Deletes, inside a user's purge, every outbox row about that user (its payload's `user_id`),
 * pending or sent (sent rows are kept an hour for inspection): an exchange's words must not
 * outlive the account, and a pending one is dropped rather than relayed to services that have
 * purged the user already. The account's lifecycle events stay. Returns how many went.
 */
export async function dropUserEvents(manager: EntityManager, userId: string): Promise<number> {
  const result: [unknown[], number] = await manager.query(
    `DELETE FROM outbox WHERE (envelope -> 'payload' ->> 'user_id') = $1 AND subject <> ALL($2::text[])`,
    [userId, USER_LIFECYCLE_SUBJECTS],
  );
  return Array.isArray(result) ? Number(result[1] ?? 0) : 0;
}

/** One event waiting to be relayed. */
export interface OutboxRow {
  /** bigserial, as a string: the relay order. */
  id: string;
  eventId: string;
  subject: string;
  /** The encoded envelope, exactly as stored. */
  body: string;
  headers: Headers;
  /** Publish attempts so far, this one included. */
  attempts: number;
}

/** How far behind the relay is: for metrics and alerts. */
export interface OutboxLag {
  pending: number;
  /** Age of the oldest event not yet sent, 0 when none. */
  oldestPendingMs: number;
}

/** What the relay needs from the database (a typed fake in unit tests). */
export interface OutboxStore {
  /**
   * Claims up to `limit` due rows, oldest first, for `leaseMs` (other replicas skip them meanwhile):
   * `FOR UPDATE SKIP LOCKED`, then their next attempt is pushed past the lease.
   */
  claim(limit: number, leaseMs: number): Promise<OutboxRow[]>;
  markSent(ids: string[]): Promise<void>;
  /** Not sent: try again after `retryInMs`. */
  markFailed(ids: string[], retryInMs: number, error: string): Promise<void>;
  /** Claimed but abandoned (the relay stops): due again at once. */
  release(ids: string[]): Promise<void>;
  deleteSentBefore(before: Date): Promise<number>;
  lag(): Promise<OutboxLag>;
}

const byId = (a: OutboxRow, b: OutboxRow) => (BigInt(a.id) < BigInt(b.id) ? -1 : BigInt(a.id) > BigInt(b.id) ? 1 : 0);

/** The outbox of one service's schema (its data source's search_path). */
export class SqlOutboxStore implements OutboxStore {
  constructor(private readonly dataSource: DataSource) {}

  async claim(limit: number, leaseMs: number): Promise<OutboxRow[]> {
    // An UPDATE answers [rows, count] through TypeORM.
    const [rows]: [{ id: string; event_id: string; subject: string; body: string; headers: Headers; attempts: number }[], number] =
      await this.dataSource.query(
        `WITH due AS (
         SELECT id FROM outbox WHERE sent_at IS NULL AND next_attempt_at <= now() ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED
       )
       UPDATE outbox o SET attempts = o.attempts + 1, next_attempt_at = now() + make_interval(secs => $2)
       FROM due WHERE o.id = due.id
       RETURNING o.id::text AS id, o.event_id, o.subject, o.envelope::text AS body, o.headers, o.attempts`,
        [limit, leaseMs / 1000],
      );
    return rows
      .map((r) => ({ id: r.id, eventId: r.event_id, subject: r.subject, body: r.body, headers: r.headers ?? {}, attempts: r.attempts }))
      .sort(byId);
  }

  async markSent(ids: string[]): Promise<void> {
    if (ids.length) await this.dataSource.query('UPDATE outbox SET sent_at = now(), last_error = NULL WHERE id = ANY($1::bigint[])', [ids]);
  }

  async markFailed(ids: string[], retryInMs: number, error: string): Promise<void> {
    if (!ids.length) return;
    await this.dataSource.query(
      'UPDATE outbox SET next_attempt_at = now() + make_interval(secs => $2), last_error = $3 WHERE id = ANY($1::bigint[]) AND sent_at IS NULL',
      [ids, retryInMs / 1000, error.slice(0, 1_000)],
    );
  }

  async release(ids: string[]): Promise<void> {
    if (ids.length)
      await this.dataSource.query('UPDATE outbox SET next_attempt_at = now() WHERE id = ANY($1::bigint[]) AND sent_at IS NULL', [ids]);
  }

  async deleteSentBefore(before: Date): Promise<number> {
    const result: [unknown[], number] = await this.dataSource.query('DELETE FROM outbox WHERE sent_at < $1', [before]);
    return Array.isArray(result) ? Number(result[1] ?? 0) : 0;
  }

  async lag(): Promise<OutboxLag> {
    const [row]: { pending: number; oldest_ms: number | null }[] = await this.dataSource.query(
      `SELECT count(*)::int AS pending, (extract(epoch FROM now() - min(created_at)) * 1000)::float8 AS oldest_ms
       FROM outbox WHERE sent_at IS NULL`,
    );
    return { pending: row?.pending ?? 0, oldestPendingMs: Math.max(0, Math.round(row?.oldest_ms ?? 0)) };
  }
}

/** The outbox as one transaction sees it: what a service's repositories hand to its logic. */
export interface TransactionalEvents {
  enqueue<C extends EventContract>(contract: C, payload: PayloadOf<C>, options?: EnqueueOptions): Promise<string>;
}

/** Events enqueued through this are written in `manager`'s transaction (which must be open). */
export function transactionalEvents(manager: EntityManager): TransactionalEvents {
  return { enqueue: (contract, payload, options) => enqueueEvent(manager, contract, payload, options) };
}
