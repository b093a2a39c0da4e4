import { sqlMigration } from '@app/platform';

/** Texts belong to a user once the number's account is known: exported and purged with it. */
export const OutboundMessageUser1765400000000 = sqlMigration('OutboundMessageUser1765400000000', {
  up: [
    'ALTER TABLE outbound_message ADD COLUMN user_id uuid',
    'CREATE INDEX outbound_message_user_idx ON outbound_message (user_id) WHERE user_id IS NOT NULL',
    'CREATE INDEX outbound_message_to_idx ON outbound_message (to_number, created_at)',
  ],
  down: ['DROP INDEX outbound_message_to_idx', 'DROP INDEX outbound_message_user_idx', 'ALTER TABLE outbound_message DROP COLUMN user_id'],
});
