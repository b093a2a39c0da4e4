import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateInsiderStatus1763800000100 implements MigrationInterface {
  name = 'CreateInsiderStatus1763800000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE insider_status (
      user_id uuid PRIMARY KEY,
      is_insider boolean NOT NULL DEFAULT false,
      is_insider_enabled boolean NOT NULL DEFAULT false,
      flags jsonb NOT NULL DEFAULT '{}',
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE insider_status');
  }
}
