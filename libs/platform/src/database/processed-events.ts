import { createHash } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { DomainError } from '../errors/domain-error';
import { platformMetrics } from '../telemetry/metrics';
import { sqlMigration } from './sql-migration';

/**
 * Every service keeps the ids of the events it has applied, so that a redelivered event changes
 * nothing twice. `applyOnce` runs the change and records the id in one transaction.
 */
export const CreateProcessedEvents1763700000000 = sqlMigration('CreateProcessedEvents1763700000000', {
  up: [
    `CREATE TABLE IF NOT EXISTS processed_event (
      consumer text NOT NULL,
      event_id text NOT NULL,
      processed_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (consumer, event_id)
    )`,
  ],
  down: ['DROP TABLE IF EXISTS processed_event'],
});

/** Lets the pruning of old ids (below) find them without reading the whole table. */
export const IndexProcessedEventsByAge1795674400000 = sqlMigration('IndexProcessedEventsByAge1795674400000', {
  up: ['CREATE INDEX IF NOT EXISTS processed_event_processed_at ON processed_event (processed_at)'],
  down: ['DROP INDEX IF EXISTS processed_event_processed_at'],
});

const HOUR_MS = 3_600_000;

/**
 * How long an applied event's id must be kept: as long as the event could still be delivered
 * again. An event can only come from the event stream, which drops it `max_age` after it was
 * published (EVENT_RETENTION_DAYS), and a service applies an event after it was published; an
 * outbox that publishes an event twice does so within the stream's duplicate window, which drops
 * the copy, or later as a new message that is itself gone `max_age` after. So past max_age plus the
 * duplicate window (plus an hour for the clocks of the database and of NATS to disagree), no
 * delivery of the event is possible any more, whatever a consumer forgets: its id can go.
 */
export function processedEventHorizonMs(retentionMs: number, duplicateWindowMs: number): number {
  return retentionMs + duplicateWindowMs + Math.min(HOUR_MS, retentionMs);
}

/**
 * Deletes the ids of events applied before `before` (every consumer of the service), a batch at a
 * time so that no long transaction holds the table; returns how many went.
 */
export async function pruneProcessedEvents(dataSource: DataSource, before: Date, batchSize = 5_000): Promise<number> {
  let total = 0;
  for (;;) {
    const [, deleted]: [unknown, number] = await dataSource.query(
      `DELETE FROM processed_event WHERE ctid IN (
         SELECT ctid FROM processed_event WHERE processed_at < $1 ORDER BY processed_at LIMIT $2
       )`,
      [before.toISOString(), batchSize],
    );
    total += deleted;
    if (deleted < batchSize) return total;
  }
}

/** Runs `fn` unless this consumer already applied `eventId`; returns whether it ran. */
export async function applyOnce(
  dataSource: DataSource,
  consumer: string,
  eventId: string,
  fn: (manager: EntityManager) => Promise<void>,
): Promise<boolean> {
  return dataSource.transaction(async (manager) => {
    const inserted: unknown[] = await manager.query(
      'INSERT INTO processed_event (consumer, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING event_id',
      [consumer, eventId],
    );
    if (inserted.length === 0) {
      platformMetrics.recordEventRedelivered(consumer);
      return false;
    }
    await fn(manager);
    return true;
  });
}

/**
 * Every service remembers which users were deleted (by a hash of their id, nothing else), so that
 * an event about one of them arriving after the purge (a reply finishing, an exchange to learn
 * from) cannot bring their data back.
 */
export const CreateForgottenUsers1763700000002 = sqlMigration('CreateForgottenUsers1763700000002', {
  up: ['CREATE TABLE IF NOT EXISTS forgotten_user (user_hash text PRIMARY KEY, forgotten_at timestamptz NOT NULL DEFAULT now())'],
  down: ['DROP TABLE IF EXISTS forgotten_user'],
});

const userHash = (userId: string) => createHash('sha256').update(`user:${userId}`).digest('hex');

const userLockKey = (userId: string) => `user:${userId}`;

/**
 * The user's lock, held to the transaction's end. `exclusive` (the default) serialises: the account
 * purge takes it so, and so do writes that must not interleave with each other (a memory merge).
 * `shared` only keeps a write and the purge apart: shared holders never wait for each other.
 */
export async function lockUser(manager: EntityManager, userId: string, mode: 'exclusive' | 'shared' = 'exclusive'): Promise<void> {
  const lock = mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
  await manager.query(`SELECT ${lock}(hashtext($1))`, [userLockKey(userId)]);
}

export async function forgetUser(manager: EntityManager, userId: string): Promise<void> {
  await manager.query('INSERT INTO forgotten_user (user_hash) VALUES ($1) ON CONFLICT DO NOTHING', [userHash(userId)]);
}

/** Whether this user's account was deleted: nothing may be written for them any more. */
export async function isForgotten(manager: EntityManager, userId: string): Promise<boolean> {
  const rows: unknown[] = await manager.query('SELECT 1 FROM forgotten_user WHERE user_hash = $1', [userHash(userId)]);
  return rows.length > 0;
}

/**
 * `living_user(user_id)`: takes the user's lock in shared mode (as `lockUser(..., 'shared')`) and
 * answers whether the account lives (no `forgotten_user` row for it). It is VOLATILE, so its check
 * reads with a snapshot taken after the lock was granted: it sees a purge that committed while it
 * waited, even when it is called inside a larger statement (a CTE whose writes select `FROM` its
 * answer). A write that creates rows for a user can so be one statement, one round trip.
 */
export const CreateLivingUserFunction1795451730725 = sqlMigration('CreateLivingUserFunction1795451730725', {
  up: [
    `CREATE OR REPLACE FUNCTION living_user(p_user_id text) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
     BEGIN
       PERFORM pg_advisory_xact_lock_shared(hashtext('user:' || p_user_id));
       RETURN NOT EXISTS (
         SELECT 1 FROM forgotten_user WHERE user_hash = encode(sha256(convert_to('user:' || p_user_id, 'UTF8')), 'hex')
       );
     END $$`,
  ],
  down: ['DROP FUNCTION IF EXISTS living_user(text)'],
});

export const ACCOUNT_DELETED = 'This account has been deleted.';

/**
 * For a write that creates something for a user: refuses when the account was deleted, so nothing
 * is ever written for a user who no longer exists, even by a request that was already past the
 * gateway when the deletion happened. A 401, so the client signs out.
 *
 * It takes the user's lock in shared mode: it waits for a purge in progress (which holds the lock
 * exclusively, see `lockUser`) and holds the purge off until it commits, but two such writes for
 * the same user never wait for each other (a user's parallel replies start in parallel). One round
 * trip: `living_user` (above) checks with a snapshot taken after the lock, so it sees a purge that
 * committed while it waited.
 */
export async function lockLivingUser(manager: EntityManager, userId: string): Promise<void> {
  if (!(await isLivingUser(manager, userId))) throw DomainError.unauthorized(ACCOUNT_DELETED);
}

/**
 * `lockLivingUser` for a write that is skipped rather than refused when the account is gone (a
 * cache entry): takes the user's lock shared, in one round trip, and answers whether they live.
 */
export async function isLivingUser(manager: EntityManager, userId: string): Promise<boolean> {
  const [row]: { alive: boolean }[] = await manager.query('SELECT living_user($1) AS alive', [userId]);
  return !!row?.alive;
}
