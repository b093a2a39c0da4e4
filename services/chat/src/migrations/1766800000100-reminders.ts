import { sqlMigration } from '@app/platform';

/**
 * Reminders (issue 26), owned by the chat service: set by the model's tools in a reply or on the
 * Reminders page, delivered at their time (in the portal, and by text through the sms service).
 * `delivering` rows are leased (`lease_until`) to the replica delivering them; `not_before` puts a
 * text off (quiet hours, a retry). The user's time zone and quiet hours are a setting of their own.
 */
export const Reminders1766800000100 = sqlMigration('Reminders1766800000100', {
  up: [
    `CREATE TABLE reminder (
      id uuid PRIMARY KEY,
      user_id uuid NOT NULL,
      chat_id uuid,
      text text NOT NULL,
      due_at timestamptz NOT NULL,
      time_zone text,
      quiet_hours_ok boolean NOT NULL DEFAULT false,
      source text NOT NULL CHECK (source IN ('chat', 'portal')),
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivering', 'delivered', 'cancelled')),
      not_before timestamptz,
      lease_until timestamptz,
      attempts integer NOT NULL DEFAULT 0,
      notified_at timestamptz,
      delivered_at timestamptz,
      late_by_seconds integer,
      text_status text,
      seen_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    "CREATE INDEX reminder_due_idx ON reminder ((COALESCE(not_before, due_at))) WHERE status IN ('pending', 'delivering')",
    'CREATE INDEX reminder_user_idx ON reminder (user_id, due_at)',
    `CREATE TABLE reminder_setting (
      user_id uuid PRIMARY KEY,
      time_zone text,
      quiet_start_minute smallint,
      quiet_end_minute smallint,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
  ],
  down: ['DROP TABLE reminder_setting', 'DROP TABLE reminder'],
});
