import { sqlMigration } from '@app/platform';

/**
 * A reply is stored from its first moment, as `streaming`, with a lease its process keeps renewing
 * while it writes (and its text checkpointed). A reply whose lease ran out belongs to a process
 * that died: it is turned into an incomplete reply with what was written so far.
 */
export const ReplyLease1765600000100 = sqlMigration('ReplyLease1765600000100', {
  up: [
    'ALTER TABLE message ADD COLUMN lease_expires_at timestamptz',
    "CREATE INDEX message_streaming_lease_idx ON message (lease_expires_at) WHERE status = 'streaming'",
  ],
  down: ['DROP INDEX message_streaming_lease_idx', 'ALTER TABLE message DROP COLUMN lease_expires_at'],
});
