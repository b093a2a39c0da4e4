import { sqlMigration } from '@app/platform';

export const CreateChat1763900000100 = sqlMigration('CreateChat1763900000100', {
  up: [
    `CREATE TABLE conversation (
      id uuid PRIMARY KEY,
      user_id uuid NOT NULL,
      title text,
      last_message_at timestamptz,
      last_active_message_id uuid,
      is_commercial boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    'CREATE INDEX conversation_user_recent_idx ON conversation (user_id, last_message_at DESC NULLS LAST, created_at DESC)',
    `CREATE TABLE message (
      id uuid PRIMARY KEY,
      chat_id uuid NOT NULL REFERENCES conversation(id) ON DELETE CASCADE,
      user_id uuid NOT NULL,
      sender text NOT NULL,
      author_user_id uuid,
      expert_id text,
      expert_name text,
      content text NOT NULL,
      feedback text CHECK (feedback IN ('like', 'dislike')),
      hidden boolean NOT NULL DEFAULT false,
      previous_message_id uuid REFERENCES message(id) ON DELETE SET NULL,
      metadata jsonb NOT NULL DEFAULT '{}',
      status text NOT NULL DEFAULT 'complete' CHECK (status IN ('complete', 'streaming', 'incomplete')),
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    'CREATE INDEX message_chat_idx ON message (chat_id, created_at)',
    'CREATE INDEX message_user_idx ON message (user_id)',
    `CREATE TABLE share (
      id text PRIMARY KEY,
      chat_id uuid NOT NULL REFERENCES conversation(id) ON DELETE CASCADE,
      user_id uuid NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      revoked_at timestamptz
    )`,
    'CREATE INDEX share_chat_idx ON share (chat_id)',
  ],
  down: ['DROP TABLE share', 'DROP TABLE message', 'DROP TABLE conversation'],
});
