import { sqlMigration } from '@app/platform';

export const CreateInsiderStatus1763800000100 = sqlMigration('CreateInsiderStatus1763800000100', {
  up: [
    `CREATE TABLE insider_status (
      user_id uuid PRIMARY KEY,
      is_insider boolean NOT NULL DEFAULT false,
      is_insider_enabled boolean NOT NULL DEFAULT false,
      flags jsonb NOT NULL DEFAULT '{}',
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
  ],
  down: ['DROP TABLE insider_status'],
});
