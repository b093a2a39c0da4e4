import { sqlMigration } from '@app/platform';

/** Each user's AI voice settings, kept whole (validated by the service) as one JSON document. */
export const CreateVoiceConfig1763800000200 = sqlMigration('CreateVoiceConfig1763800000200', {
  up: [
    `CREATE TABLE voice_config (
      user_id uuid PRIMARY KEY,
      config jsonb NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
  ],
  down: ['DROP TABLE voice_config'],
});
