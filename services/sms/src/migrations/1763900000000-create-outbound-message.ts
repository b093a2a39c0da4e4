import { sqlMigration } from '@app/platform';

export const CreateOutboundMessage1763900000000 = sqlMigration('CreateOutboundMessage1763900000000', {
  up: [
    `CREATE TABLE outbound_message (
      id uuid PRIMARY KEY,
      to_number text NOT NULL,
      body text NOT NULL,
      purpose text NOT NULL,
      provider text NOT NULL,
      status text NOT NULL,
      provider_message_id text,
      error text,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp()
    )`,
    'CREATE INDEX outbound_message_created_idx ON outbound_message (created_at)',
  ],
  down: ['DROP TABLE outbound_message'],
});
