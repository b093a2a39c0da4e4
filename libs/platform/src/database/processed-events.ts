import { createHash } from 'node:crypto';
import type { DataSource, EntityManager, MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every service keeps the ids of the events it has applied, so that a redelivered event changes
 * nothing twice. `applyOnce` runs the change and records the id in one transaction.
 */
export class CreateProcessedEvents1763700000000 implements MigrationInterface {
  name = 'CreateProcessedEvents1763700000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE IF NOT EXISTS processed_event (
      consumer text NOT NULL,
      event_id text NOT NULL,
      processed_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (consumer, event_id)
    )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE IF EXISTS processed_event');
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
    if (inserted.length === 0) return false;
    await fn(manager);
    return true;
  });
}

/**
 * Every service remembers which users were deleted (by a hash of their id, nothing else), so that
 * an event about one of them arriving after the purge (a reply finishing, an exchange to learn
 * from) cannot bring their data back.
 */
export class CreateForgottenUsers1763700000002 implements MigrationInterface {
  name = 'CreateForgottenUsers1763700000002';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('CREATE TABLE IF NOT EXISTS forgotten_user (user_hash text PRIMARY KEY, forgotten_at timestamptz NOT NULL DEFAULT now())');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE IF EXISTS forgotten_user');
  }
}

const userHash = (userId: string) => createHash('sha256').update(`user:${userId}`).digest('hex');

/**
 * Serialises writes about one user within a service's transactions (the account purge takes it
 * too, so a write and the purge never interleave).
 */
export async function lockUser(manager: EntityManager, userId: string): Promise<void> {
  await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`user:${userId}`]);
}

export async function forgetUser(manager: EntityManager, userId: string): Promise<void> {
  await manager.query('INSERT INTO forgotten_user (user_hash) VALUES ($1) ON CONFLICT DO NOTHING', [userHash(userId)]);
}

/** Whether this user's account was deleted: nothing may be written for them any more. */
export async function isForgotten(manager: EntityManager, userId: string): Promise<boolean> {
  const rows: unknown[] = await manager.query('SELECT 1 FROM forgotten_user WHERE user_hash = $1', [userHash(userId)]);
  return rows.length > 0;
}
