import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Each user's AI voice settings, kept whole (validated by the service) as one JSON document. */
export class CreateVoiceConfig1763800000200 implements MigrationInterface {
  name = 'CreateVoiceConfig1763800000200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE voice_config (
      user_id uuid PRIMARY KEY,
      config jsonb NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE voice_config');
  }
}
