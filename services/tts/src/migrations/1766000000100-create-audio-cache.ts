import { sqlMigration } from '@app/platform';

/**
 * Synthesised audio kept for replays: what it is (exported, no text: a hash of the request) and
 * its bytes beside it (gone with the row).
 */
export const CreateAudioCache1766000000100 = sqlMigration('CreateAudioCache1766000000100', {
  up: [
    `CREATE TABLE audio_cache (
      id uuid PRIMARY KEY,
      user_id uuid NOT NULL,
      cache_key text NOT NULL,
      engine text NOT NULL,
      model text NOT NULL,
      voice text NOT NULL,
      speed real NOT NULL,
      format text NOT NULL,
      text_chars int NOT NULL,
      content_type text NOT NULL,
      request_id text NOT NULL,
      size int NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (user_id, cache_key)
    )`,
    'CREATE INDEX audio_cache_last_used_idx ON audio_cache (last_used_at)',
    `CREATE TABLE audio_cache_bytes (
      cache_id uuid PRIMARY KEY REFERENCES audio_cache (id) ON DELETE CASCADE,
      audio bytea NOT NULL
    )`,
  ],
  down: ['DROP TABLE audio_cache_bytes', 'DROP TABLE audio_cache'],
});
