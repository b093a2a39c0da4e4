import { dropTables, sqlMigration } from '@app/platform';

/**
 * The text channel (issue 15): incoming texts (once per MessageSid), the outbound queue's columns,
 * delivery status callbacks, opt-outs per number, one conversation per texting thread, monthly
 * usage, notices (once per event), group channels with members, invites, pending joins and their
 * searchable messages, and the key the development phone signs its webhooks with.
 */
export const SmsChannel1766000000000 = sqlMigration('SmsChannel1766000000000', {
  up: [
    `ALTER TABLE outbound_message
      ADD COLUMN from_number text,
      ADD COLUMN media_urls json,
      ADD COLUMN attempts integer NOT NULL DEFAULT 0,
      ADD COLUMN segments integer,
      ADD COLUMN encoding text,
      ADD COLUMN error_code text,
      ADD COLUMN inbound_id uuid,
      ADD COLUMN group_id uuid,
      ADD COLUMN status_updated_at timestamptz`,
    'CREATE INDEX outbound_message_sid_idx ON outbound_message (provider_message_id) WHERE provider_message_id IS NOT NULL',
    `CREATE TABLE inbound_message (
      id uuid PRIMARY KEY,
      message_sid text NOT NULL UNIQUE,
      from_number text NOT NULL,
      to_number text NOT NULL,
      user_id uuid,
      body text NOT NULL,
      media json NOT NULL DEFAULT '[]',
      status text NOT NULL,
      group_id uuid,
      lease_until timestamptz,
      error text,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp()
    )`,
    'CREATE INDEX inbound_message_user_idx ON inbound_message (user_id) WHERE user_id IS NOT NULL',
    'CREATE INDEX inbound_message_from_idx ON inbound_message (from_number, created_at)',
    `CREATE INDEX inbound_message_pending_idx ON inbound_message (created_at) WHERE status IN ('received', 'processing')`,
    `CREATE TABLE sms_status_callback (
      id bigserial PRIMARY KEY,
      message_sid text NOT NULL,
      outbound_id uuid,
      user_id uuid,
      status text NOT NULL,
      error_code text,
      received_at timestamptz NOT NULL DEFAULT clock_timestamp()
    )`,
    'CREATE INDEX sms_status_callback_sid_idx ON sms_status_callback (message_sid)',
    'CREATE INDEX sms_status_callback_user_idx ON sms_status_callback (user_id) WHERE user_id IS NOT NULL',
    `CREATE TABLE sms_number (
      phone_number text PRIMARY KEY,
      user_id uuid,
      opted_out boolean NOT NULL DEFAULT false,
      opted_out_at timestamptz,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    'CREATE INDEX sms_number_user_idx ON sms_number (user_id)',
    `CREATE TABLE sms_thread (
      id uuid PRIMARY KEY,
      user_id uuid NOT NULL,
      phone_number text NOT NULL,
      service_number text NOT NULL,
      chat_id uuid NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (user_id, service_number)
    )`,
    `CREATE TABLE sms_usage (
      user_id uuid NOT NULL,
      period text NOT NULL,
      texts_used integer NOT NULL DEFAULT 0,
      PRIMARY KEY (user_id, period)
    )`,
    `CREATE TABLE sms_notice (
      id uuid PRIMARY KEY,
      user_id uuid,
      phone_number text NOT NULL,
      kind text NOT NULL,
      event_key text NOT NULL,
      outbound_id uuid,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (kind, event_key)
    )`,
    'CREATE INDEX sms_notice_user_idx ON sms_notice (user_id)',
    'CREATE TABLE sms_setting (key text PRIMARY KEY, value text NOT NULL)',
    `CREATE TABLE sms_group (
      id uuid PRIMARY KEY,
      channel_url text NOT NULL UNIQUE,
      name text NOT NULL,
      phone_number text NOT NULL,
      owner_user_id uuid NOT NULL,
      chat_id uuid NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE TABLE sms_group_member (
      group_id uuid NOT NULL REFERENCES sms_group (id) ON DELETE CASCADE,
      phone_number text NOT NULL,
      user_id uuid NOT NULL,
      label text NOT NULL,
      joined_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (group_id, phone_number)
    )`,
    'CREATE INDEX sms_group_member_user_idx ON sms_group_member (user_id)',
    'CREATE INDEX sms_group_member_number_idx ON sms_group_member (phone_number)',
    `CREATE TABLE sms_group_invite (
      id text PRIMARY KEY,
      group_id uuid NOT NULL REFERENCES sms_group (id) ON DELETE CASCADE,
      created_by uuid,
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE TABLE sms_group_join (
      phone_number text NOT NULL,
      group_id uuid NOT NULL REFERENCES sms_group (id) ON DELETE CASCADE,
      invite_id text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (phone_number, group_id)
    )`,
    `CREATE TABLE sms_group_message (
      id uuid PRIMARY KEY,
      group_id uuid NOT NULL REFERENCES sms_group (id) ON DELETE CASCADE,
      sender_user_id uuid,
      sender_label text NOT NULL,
      is_assistant boolean NOT NULL,
      body text NOT NULL,
      search tsvector GENERATED ALWAYS AS (to_tsvector('simple', body)) STORED,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp()
    )`,
    'CREATE INDEX sms_group_message_group_idx ON sms_group_message (group_id, created_at DESC)',
    'CREATE INDEX sms_group_message_search_idx ON sms_group_message USING gin (search)',
    'CREATE INDEX sms_group_message_sender_idx ON sms_group_message (sender_user_id) WHERE sender_user_id IS NOT NULL',
  ],
  down: [
    ...dropTables([
      'sms_group_message',
      'sms_group_join',
      'sms_group_invite',
      'sms_group_member',
      'sms_group',
      'sms_setting',
      'sms_notice',
      'sms_usage',
      'sms_thread',
      'sms_number',
      'sms_status_callback',
      'inbound_message',
    ]),
    'DROP INDEX outbound_message_sid_idx',
    `ALTER TABLE outbound_message DROP COLUMN from_number, DROP COLUMN media_urls, DROP COLUMN attempts, DROP COLUMN segments,
      DROP COLUMN encoding, DROP COLUMN error_code, DROP COLUMN inbound_id, DROP COLUMN group_id, DROP COLUMN status_updated_at`,
  ],
});
