import { sqlMigration } from '@app/platform';

/**
 * Retrieval before each reply matches a user's live memories against the words of the message. With
 * the full-text index over everyone's memories alone, PostgreSQL read all of the user's rows (10,000:
 * about 10 ms) and tested each; one GIN index over (user_id, search) finds the user's matches only
 * (about 1 ms), which are then ranked. btree_gin gives GIN its uuid operator class (a trusted
 * extension: the role that creates the service's schema may create it). Without GIN's pending list
 * (fastupdate off): with it, memories added since the last vacuum were scanned one by one on every
 * read (10,000 of them: back to 10 ms); an insert costs a little more, off the reply's path. The index over `search`
 * alone served nothing else (every search is one user's) and goes.
 */
export const IndexUserMemorySearchPerUser1764000000300 = sqlMigration('IndexUserMemorySearchPerUser1764000000300', {
  up: [
    'CREATE EXTENSION IF NOT EXISTS btree_gin',
    'CREATE INDEX user_memory_live_search ON user_memory USING gin (user_id, search) WITH (fastupdate = off) WHERE removed_at IS NULL',
    'DROP INDEX user_memory_search',
  ],
  down: ['CREATE INDEX user_memory_search ON user_memory USING gin (search)', 'DROP INDEX user_memory_live_search'],
});
