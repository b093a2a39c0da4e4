import { sqlMigration } from '@app/platform';

/**
 * Imports of ChatGPT and Claude history (issue 25, part 3). `import_job` is one import: its state,
 * lease (a worker that died is replaced once it lapses), counters and the list of what could not be
 * represented. `imported_conversation` remembers each conversation imported, by its source and its
 * id there, so importing the same export twice creates nothing twice (and a job that died is rerun
 * without duplicates); it goes with the conversation when the user deletes it.
 */
export const Imports1767000000100 = sqlMigration('Imports1767000000100', {
  up: [
    `CREATE TABLE import_job (
      id uuid PRIMARY KEY,
      user_id uuid NOT NULL,
      object_id text NOT NULL,
      filename text NOT NULL,
      requested_source text NOT NULL CHECK (requested_source IN ('auto', 'chatgpt', 'claude')),
      source text CHECK (source IN ('chatgpt', 'claude')),
      learn_memories boolean NOT NULL DEFAULT false,
      status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
      conversations_total integer,
      conversations_done integer NOT NULL DEFAULT 0,
      conversations_imported integer NOT NULL DEFAULT 0,
      conversations_existing integer NOT NULL DEFAULT 0,
      messages_imported integer NOT NULL DEFAULT 0,
      attachments_imported integer NOT NULL DEFAULT 0,
      skipped jsonb NOT NULL DEFAULT '[]',
      skipped_total integer NOT NULL DEFAULT 0,
      error text,
      attempts integer NOT NULL DEFAULT 0,
      lease_until timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz
    )`,
    'CREATE INDEX import_job_user_idx ON import_job (user_id, created_at)',
    // One import under way per user; the workers find theirs by status.
    "CREATE UNIQUE INDEX import_job_one_per_user ON import_job (user_id) WHERE status IN ('queued', 'running')",
    "CREATE INDEX import_job_pending_idx ON import_job (created_at) WHERE status IN ('queued', 'running')",
    `CREATE TABLE imported_conversation (
      user_id uuid NOT NULL,
      source text NOT NULL,
      source_id text NOT NULL,
      chat_id uuid NOT NULL REFERENCES conversation(id) ON DELETE CASCADE,
      import_id uuid NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_id, source, source_id)
    )`,
    'CREATE INDEX imported_conversation_chat_idx ON imported_conversation (chat_id)',
  ],
  down: ['DROP TABLE imported_conversation', 'DROP TABLE import_job'],
});
