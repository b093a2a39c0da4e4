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
