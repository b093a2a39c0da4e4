import { sqlMigration } from '@app/platform';

/**
 * "What do you know about me?" falls back to the user's confirmed, then most recent, memories: with
 * 10,000 of them that sorted them all (about 11 ms measured); a btree in that order reads the first
 * rows only (well under 1 ms).
 */
export const IndexUserMemoryPerUser1764000000200 = sqlMigration('IndexUserMemoryPerUser1764000000200', {
  up: ['CREATE INDEX user_memory_live_confirmed ON user_memory (user_id, is_confirmed DESC, updated_at DESC) WHERE removed_at IS NULL'],
  down: ['DROP INDEX user_memory_live_confirmed'],
});
