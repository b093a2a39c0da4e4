import { sqlMigration } from '@app/platform';

/**
 * A temporary chat (issue 25): not listed, not searched, not learnt from, not personalized, and
 * deleted when its user closes it or, at the latest, at `expires_at` (CHAT_TEMPORARY_CHAT_TTL_SECONDS
 * after it began) by the chat's sweeper, which reads this partial index.
 */
export const TemporaryConversation1766700000200 = sqlMigration('TemporaryConversation1766700000200', {
  up: [
    'ALTER TABLE conversation ADD COLUMN expires_at timestamptz',
    'CREATE INDEX conversation_expiring_idx ON conversation (expires_at) WHERE expires_at IS NOT NULL',
  ],
  down: ['DROP INDEX conversation_expiring_idx', 'ALTER TABLE conversation DROP COLUMN expires_at'],
});
