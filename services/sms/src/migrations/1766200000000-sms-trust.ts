import { dropTables, sqlMigration } from '@app/platform';

/**
 * Texts people can trust (issue 21).
 *
 * - A membership has its own service number: the number of the pool this member texts the group
 *   on, unique per member (`phone_number`, `service_number`), so a text from a member to a number
 *   names exactly one group. Memberships that shared a number with another of the member's groups
 *   (the defect) keep the oldest on it; the others lose their number (NULL: neither routed to nor
 *   relayed to) until the service gives them a free one at start-up.
 * - A pending join remembers the number its invitation came from, who invited, and a short code
 *   (`JOIN 4821`) that tells two pending invitations apart.
 * - Every invitation text is recorded (`sms_join_ask`) so a number, an invite link and a group each
 *   have a daily budget; keyword replies (HELP...) are recorded per number and kind; the global
 *   ceiling counts sends per minute and per day (`sms_send_window`).
 */
export const SmsTrust1766200000000 = sqlMigration('SmsTrust1766200000000', {
  up: [
    'ALTER TABLE sms_group_member ADD COLUMN service_number text',
    'UPDATE sms_group_member m SET service_number = g.phone_number FROM sms_group g WHERE g.id = m.group_id',
    `UPDATE sms_group_member m SET service_number = NULL FROM (
       SELECT group_id, phone_number, row_number() OVER (PARTITION BY phone_number, service_number ORDER BY joined_at, group_id) AS n
       FROM sms_group_member) ranked
     WHERE ranked.group_id = m.group_id AND ranked.phone_number = m.phone_number AND ranked.n > 1`,
    'CREATE UNIQUE INDEX sms_group_member_route_idx ON sms_group_member (phone_number, service_number)',
    'ALTER TABLE sms_group_join ADD COLUMN service_number text, ADD COLUMN code text, ADD COLUMN inviter_label text',
    `UPDATE sms_group_join j SET service_number = g.phone_number, code = lpad((floor(random() * 10000))::int::text, 4, '0')
       FROM sms_group g WHERE g.id = j.group_id`,
    `CREATE TABLE sms_join_ask (
      id uuid PRIMARY KEY,
      phone_number text NOT NULL,
      invite_id text NOT NULL,
      group_id uuid NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    'CREATE INDEX sms_join_ask_number_idx ON sms_join_ask (phone_number, created_at)',
    'CREATE INDEX sms_join_ask_invite_idx ON sms_join_ask (invite_id, created_at)',
    'CREATE INDEX sms_join_ask_group_idx ON sms_join_ask (group_id, created_at)',
    `CREATE TABLE sms_keyword_reply (
      phone_number text NOT NULL,
      kind text NOT NULL,
      user_id uuid,
      sent_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (phone_number, kind)
    )`,
    'CREATE INDEX sms_keyword_reply_user_idx ON sms_keyword_reply (user_id) WHERE user_id IS NOT NULL',
    'CREATE TABLE sms_send_window (bucket text PRIMARY KEY, sent integer NOT NULL, starts_at timestamptz NOT NULL)',
  ],
  down: [
    ...dropTables(['sms_send_window', 'sms_keyword_reply', 'sms_join_ask']),
    'ALTER TABLE sms_group_join DROP COLUMN service_number, DROP COLUMN code, DROP COLUMN inviter_label',
    'DROP INDEX sms_group_member_route_idx',
    'ALTER TABLE sms_group_member DROP COLUMN service_number',
  ],
});
