import { sqlMigration } from '@app/platform';

/**
 * The memory store. Full-text search uses the `english` configuration (stemming, stop words) on a
 * generated tsvector; the partial indexes cover what is read: a user's live memories by recency, by
 * subject (contradictions), by text (duplicates) and by conversation.
 */
export const CreateUserMemory1764000000100 = sqlMigration('CreateUserMemory1764000000100', {
  up: [
    `CREATE TABLE user_memory (
      user_memory_id uuid PRIMARY KEY,
      user_id uuid NOT NULL,
      source_chat_id uuid,
      source_message_id uuid,
      text text NOT NULL CHECK (length(text) BETWEEN 1 AND 500),
      normalized_text text NOT NULL,
      subject_key text,
      is_inference boolean NOT NULL DEFAULT false,
      is_fact boolean NOT NULL DEFAULT true,
      is_confirmed boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      removed_at timestamptz,
      search tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, text)) STORED
    )`,
    'CREATE INDEX user_memory_live_recent ON user_memory (user_id, updated_at DESC) WHERE removed_at IS NULL',
    'CREATE INDEX user_memory_live_subject ON user_memory (user_id, subject_key) WHERE removed_at IS NULL AND subject_key IS NOT NULL',
    'CREATE INDEX user_memory_live_text ON user_memory (user_id, normalized_text) WHERE removed_at IS NULL',
    'CREATE INDEX user_memory_source_chat ON user_memory (user_id, source_chat_id) WHERE removed_at IS NULL',
    'CREATE INDEX user_memory_removed ON user_memory (removed_at) WHERE removed_at IS NOT NULL',
    'CREATE INDEX user_memory_search ON user_memory USING gin (search)',
  ],
  down: ['DROP TABLE user_memory'],
});
