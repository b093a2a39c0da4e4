import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateOutboundMessage1763900000000 implements MigrationInterface {
  name = 'CreateOutboundMessage1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE outbound_message (
      id uuid PRIMARY KEY,
      to_number text NOT NULL,
      body text NOT NULL,
      purpose text NOT NULL,
      provider text NOT NULL,
      status text NOT NULL,
      provider_message_id text,
      error text,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp()
    )`);
    await q.query('CREATE INDEX outbound_message_created_idx ON outbound_message (created_at)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE outbound_message');
  }
}
