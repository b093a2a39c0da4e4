import { dropTables, sqlMigration } from '@app/platform';

export const CreateAuth1763800000000 = sqlMigration('CreateAuth1763800000000', {
  up: [
    `CREATE TABLE app_user (
      id uuid PRIMARY KEY,
      name text,
      email text,
      phone_number text UNIQUE,
      is_anon boolean NOT NULL,
      registered boolean NOT NULL DEFAULT false,
      onboarding_done boolean NOT NULL DEFAULT false,
      adult_confirmed_at timestamptz,
      campaign_name text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE TABLE identity (
      provider text NOT NULL,
      subject text NOT NULL,
      user_id uuid NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
      email text,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (provider, subject)
    )`,
    'CREATE INDEX identity_user_idx ON identity (user_id)',
    `CREATE TABLE session (
      id uuid PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz,
      ip text,
      user_agent text
    )`,
    'CREATE INDEX session_user_idx ON session (user_id)',
    `CREATE TABLE phone_code (
      id uuid PRIMARY KEY,
      phone_number text NOT NULL,
      code_hash text NOT NULL,
      expires_at timestamptz NOT NULL,
      attempts int NOT NULL DEFAULT 0,
      consumed_at timestamptz,
      guest_user_id uuid,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    'CREATE INDEX phone_code_number_idx ON phone_code (phone_number, created_at DESC)',
    `CREATE TABLE invite_link (
      id text PRIMARY KEY,
      created_by uuid NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
      group_id text,
      max_uses int NOT NULL CHECK (max_uses > 0),
      uses int NOT NULL DEFAULT 0 CHECK (uses >= 0),
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE TABLE invite_redemption (
      invite_id text NOT NULL REFERENCES invite_link(id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES app_user(id) ON DELETE CASCADE,
      redeemed_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (invite_id, user_id)
    )`,
    `CREATE TABLE campaign (
      campaign_name text PRIMARY KEY,
      title text NOT NULL,
      text text NOT NULL,
      starter_prompts jsonb NOT NULL DEFAULT '[]',
      active boolean NOT NULL DEFAULT true
    )`,
    `CREATE TABLE account_deletion (
      id uuid PRIMARY KEY,
      user_id uuid,
      pending_services text[] NOT NULL,
      requested_at timestamptz NOT NULL DEFAULT now(),
      last_published_at timestamptz NOT NULL DEFAULT now(),
      completed_at timestamptz
    )`,
    `CREATE TABLE signing_key (
      kid text PRIMARY KEY,
      private_jwk jsonb NOT NULL,
      public_jwk jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      retired_at timestamptz
    )`,
    'CREATE TABLE auth_secret (name text PRIMARY KEY, value text NOT NULL)',
  ],
  down: dropTables(
    [
      'auth_secret',
      'signing_key',
      'account_deletion',
      'campaign',
      'invite_redemption',
      'invite_link',
      'phone_code',
      'session',
      'identity',
      'app_user',
    ],
    { ifExists: true },
  ),
});
