import { sqlMigration } from '@app/platform';

/** Stored files, uploads in progress, and the key of the signed links. */
export const CreateFiles1764100000100 = sqlMigration('CreateFiles1764100000100', {
  up: [
    `CREATE TABLE file_object (
      id uuid PRIMARY KEY,
      user_id uuid NOT NULL,
      filename text NOT NULL,
      mime_type text NOT NULL,
      size bigint NOT NULL,
      sha256 text NOT NULL,
      source text NOT NULL CHECK (source IN ('upload', 'generated')),
      storage_key text NOT NULL UNIQUE,
      derived_keys text[] NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    'CREATE INDEX file_object_user_idx ON file_object (user_id, created_at)',
    `CREATE TABLE upload_session (
      id uuid PRIMARY KEY,
      user_id uuid NOT NULL,
      filename text NOT NULL,
      declared_type text,
      mime_type text,
      source text NOT NULL CHECK (source IN ('upload', 'generated')),
      received_bytes bigint NOT NULL DEFAULT 0,
      next_seq int NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    'CREATE INDEX upload_session_user_idx ON upload_session (user_id)',
    'CREATE INDEX upload_session_updated_idx ON upload_session (updated_at)',
    'CREATE TABLE files_secret (name text PRIMARY KEY, value text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())',
  ],
  down: ['DROP TABLE files_secret', 'DROP TABLE upload_session', 'DROP TABLE file_object'],
});
