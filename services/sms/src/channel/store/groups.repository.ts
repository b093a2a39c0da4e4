import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Queryable } from './queryable';

export interface GroupRow {
  id: string;
  channelUrl: string;
  name: string;
  /** The number the group was given first (its creator's); each member has their own (MemberRow.serviceNumber). */
  phoneNumber: string;
  ownerUserId: string;
  chatId: string;
  createdAt: Date;
}

/** What a deleted member's relayed words become in the others' texts. */
export const REMOVED = '(removed)';

export interface MemberRow {
  phoneNumber: string;
  userId: string;
  label: string;
  /** The number of the pool this member texts the group on and receives it from; null while none is free (not routed). */
  serviceNumber: string | null;
}

/** A group as one member sees it: with their label and their number for it. */
export type Membership = GroupRow & { label: string; serviceNumber: string | null };

/** An invitation waiting for its YES (or JOIN code). */
export interface PendingJoin {
  groupId: string;
  groupName: string;
  inviteId: string;
  serviceNumber: string;
  code: string;
  inviterLabel: string;
}

const groupOf = (r: Record<string, unknown>): GroupRow => ({
  id: r.id as string,
  channelUrl: r.channel_url as string,
  name: r.name as string,
  phoneNumber: r.phone_number as string,
  ownerUserId: r.owner_user_id as string,
  chatId: r.chat_id as string,
  createdAt: new Date(r.created_at as string),
});

const membershipOf = (r: Record<string, unknown>): Membership => ({
  ...groupOf(r),
  label: r.label as string,
  serviceNumber: (r.service_number as string | null) ?? null,
});

/** Invitations live this long after they were texted, and while their link lives. */
const PENDING_LIVE = `j.created_at > now() - interval '1 day' AND i.revoked_at IS NULL AND i.expires_at > now()`;

/** Group channels, members (each on their own number of the pool), invites, pending joins and the group's messages (schema `sms`). */
@Injectable()
export class GroupsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The group and its first member; false when the owner took the number meanwhile (another creation at once). */
  async create(group: Omit<GroupRow, 'createdAt'>, owner: MemberRow): Promise<boolean> {
    return this.dataSource.transaction(async (m) => {
      await m.query('INSERT INTO sms_group (id, channel_url, name, phone_number, owner_user_id, chat_id) VALUES ($1, $2, $3, $4, $5, $6)', [
        group.id,
        group.channelUrl,
        group.name,
        group.phoneNumber,
        group.ownerUserId,
        group.chatId,
      ]);
      if (await this.addMember(m, group.id, owner)) return true;
      // Roll back the group: its number is no longer free for the owner.
      await m.query('DELETE FROM sms_group WHERE id = $1', [group.id]);
      return false;
    });
  }

  /** Adds a member on their number; false when they already have a group on that number (or are in this one). */
  async addMember(db: Queryable, groupId: string, member: MemberRow): Promise<boolean> {
    const rows: unknown[] = await db.query(
      `INSERT INTO sms_group_member (group_id, phone_number, user_id, label, service_number) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT DO NOTHING RETURNING group_id`,
      [groupId, member.phoneNumber, member.userId, member.label, member.serviceNumber],
    );
    return rows.length > 0;
  }

  /** The numbers of the pool a phone already has a group on. */
  async numbersInUse(phoneNumber: string, db: Queryable = this.dataSource): Promise<string[]> {
    const rows: { service_number: string }[] = await db.query(
      'SELECT service_number FROM sms_group_member WHERE phone_number = $1 AND service_number IS NOT NULL',
      [phoneNumber],
    );
    return rows.map((r) => r.service_number);
  }

  /** The one group a phone texts on this number of the pool (a member's numbers are unique to their groups). */
  async membershipOn(phoneNumber: string, serviceNumber: string): Promise<Membership | null> {
    const [row]: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT g.*, m.label, m.service_number FROM sms_group g JOIN sms_group_member m ON m.group_id = g.id
       WHERE m.phone_number = $1 AND m.service_number = $2`,
      [phoneNumber, serviceNumber],
    );
    return row ? membershipOf(row) : null;
  }

  async byChannelForMember(channelUrl: string, userId: string): Promise<Membership | null> {
    const [row]: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT g.*, m.label, m.service_number FROM sms_group g JOIN sms_group_member m ON m.group_id = g.id
       WHERE g.channel_url = $1 AND m.user_id = $2 ORDER BY m.joined_at LIMIT 1`,
      [channelUrl, userId],
    );
    return row ? membershipOf(row) : null;
  }

  async ofUser(userId: string): Promise<Membership[]> {
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT DISTINCT ON (g.created_at, g.id) g.*, m.label, m.service_number FROM sms_group g JOIN sms_group_member m ON m.group_id = g.id
       WHERE m.user_id = $1 ORDER BY g.created_at DESC, g.id, m.joined_at`,
      [userId],
    );
    return rows.map(membershipOf);
  }

  async members(groupId: string): Promise<MemberRow[]> {
    const rows: { phone_number: string; user_id: string; label: string; service_number: string | null }[] = await this.dataSource.query(
      'SELECT phone_number, user_id, label, service_number FROM sms_group_member WHERE group_id = $1 ORDER BY joined_at, phone_number',
      [groupId],
    );
    return rows.map((r) => ({ phoneNumber: r.phone_number, userId: r.user_id, label: r.label, serviceNumber: r.service_number }));
  }

  /**
   * The members a group text goes to: those with a number for the group whose phone has not
   * texted STOP (the others are neither written to nor counted).
   */
  async reachableMembers(groupId: string): Promise<MemberRow[]> {
    const rows: { phone_number: string; user_id: string; label: string; service_number: string }[] = await this.dataSource.query(
      `SELECT m.phone_number, m.user_id, m.label, m.service_number FROM sms_group_member m
       LEFT JOIN sms_number n ON n.phone_number = m.phone_number
       WHERE m.group_id = $1 AND m.service_number IS NOT NULL AND n.opted_out IS NOT TRUE ORDER BY m.joined_at, m.phone_number`,
      [groupId],
    );
    return rows.map((r) => ({ phoneNumber: r.phone_number, userId: r.user_id, label: r.label, serviceNumber: r.service_number }));
  }

  /** Memberships left without a number (two of a member's groups once shared one): given one at start-up when the pool allows. */
  async unrouted(limit: number): Promise<(MemberRow & { groupId: string; groupName: string })[]> {
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT m.group_id, g.name, m.phone_number, m.user_id, m.label FROM sms_group_member m JOIN sms_group g ON g.id = m.group_id
       WHERE m.service_number IS NULL ORDER BY m.joined_at LIMIT $1`,
      [limit],
    );
    return rows.map((r) => ({
      groupId: r.group_id as string,
      groupName: r.name as string,
      phoneNumber: r.phone_number as string,
      userId: r.user_id as string,
      label: r.label as string,
      serviceNumber: null,
    }));
  }

  /** Gives a member of a group their number; false when they took it for another group meanwhile. */
  async route(db: Queryable, groupId: string, phoneNumber: string, serviceNumber: string): Promise<boolean> {
    // An UPDATE answers [rows, count] through TypeORM.
    const [, updated]: [unknown[], number] = await db.query(
      `UPDATE sms_group_member SET service_number = $3 WHERE group_id = $1 AND phone_number = $2 AND service_number IS NULL
         AND NOT EXISTS (SELECT 1 FROM sms_group_member WHERE phone_number = $2 AND service_number = $3) RETURNING group_id`,
      [groupId, phoneNumber, serviceNumber],
    );
    return updated > 0;
  }

  async addInvite(invite: { id: string; groupId: string; createdBy: string; expiresAt: Date }): Promise<void> {
    await this.dataSource.query('INSERT INTO sms_group_invite (id, group_id, created_by, expires_at) VALUES ($1, $2, $3, $4)', [
      invite.id,
      invite.groupId,
      invite.createdBy,
      invite.expiresAt,
    ]);
  }

  /** Groups an account created in the last day. */
  async createdToday(userId: string): Promise<number> {
    const [row]: { n: number }[] = await this.dataSource.query(
      "SELECT count(*)::int AS n FROM sms_group WHERE owner_user_id = $1 AND created_at > now() - interval '1 day'",
      [userId],
    );
    return row?.n ?? 0;
  }

  /** Invite links a group made in the last day. */
  async invitesToday(groupId: string): Promise<number> {
    const [row]: { n: number }[] = await this.dataSource.query(
      "SELECT count(*)::int AS n FROM sms_group_invite WHERE group_id = $1 AND created_at > now() - interval '1 day'",
      [groupId],
    );
    return row?.n ?? 0;
  }

  async revokeInvite(groupId: string, inviteId: string): Promise<boolean> {
    const [, affected]: [unknown[], number] = await this.dataSource.query(
      'UPDATE sms_group_invite SET revoked_at = now() WHERE id = $1 AND group_id = $2 AND revoked_at IS NULL',
      [inviteId, groupId],
    );
    return affected > 0;
  }

  /** A live invite (not expired, not revoked), its group, and how the member who made it is shown (null: they left). */
  async liveInvite(inviteId: string): Promise<{ group: GroupRow; expiresAt: Date; inviterLabel: string | null } | null> {
    const [row]: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT g.*, i.expires_at AS invite_expires_at,
         (SELECT m.label FROM sms_group_member m WHERE m.group_id = g.id AND m.user_id = i.created_by LIMIT 1) AS inviter_label
       FROM sms_group_invite i JOIN sms_group g ON g.id = i.group_id
       WHERE i.id = $1 AND i.revoked_at IS NULL AND i.expires_at > now()`,
      [inviteId],
    );
    return row
      ? {
          group: groupOf(row),
          expiresAt: new Date(row.invite_expires_at as string),
          inviterLabel: (row.inviter_label as string | null) ?? null,
        }
      : null;
  }

  /** Whether the phone is a member of the group. */
  async isMember(groupId: string, phoneNumber: string, db: Queryable = this.dataSource): Promise<boolean> {
    const rows: unknown[] = await db.query('SELECT 1 FROM sms_group_member WHERE group_id = $1 AND phone_number = $2', [
      groupId,
      phoneNumber,
    ]);
    return rows.length > 0;
  }

  /** The invitations a phone may still answer (texted within a day, their link alive), oldest first. */
  async pendingJoins(phoneNumber: string, db: Queryable = this.dataSource): Promise<PendingJoin[]> {
    const rows: Record<string, unknown>[] = await db.query(
      `SELECT j.group_id, g.name, j.invite_id, j.service_number, j.code, j.inviter_label
       FROM sms_group_join j JOIN sms_group g ON g.id = j.group_id JOIN sms_group_invite i ON i.id = j.invite_id
       WHERE j.phone_number = $1 AND ${PENDING_LIVE} ORDER BY j.created_at, j.group_id`,
      [phoneNumber],
    );
    return rows.map((r) => ({
      groupId: r.group_id as string,
      groupName: r.name as string,
      inviteId: r.invite_id as string,
      serviceNumber: r.service_number as string,
      code: r.code as string,
      inviterLabel: r.inviter_label as string,
    }));
  }

  async pendJoin(db: Queryable, phoneNumber: string, join: Omit<PendingJoin, 'groupName'>): Promise<void> {
    await db.query(
      `INSERT INTO sms_group_join (phone_number, group_id, invite_id, service_number, code, inviter_label) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (phone_number, group_id) DO UPDATE SET invite_id = EXCLUDED.invite_id, service_number = EXCLUDED.service_number,
         code = EXCLUDED.code, inviter_label = EXCLUDED.inviter_label, created_at = now()`,
      [phoneNumber, join.groupId, join.inviteId, join.serviceNumber, join.code, join.inviterLabel],
    );
  }

  async dropPendingJoin(db: Queryable, phoneNumber: string, groupId: string): Promise<void> {
    await db.query('DELETE FROM sms_group_join WHERE phone_number = $1 AND group_id = $2', [phoneNumber, groupId]);
  }

  /** Invitation texts of the last day: to this number, from this invite link, from this group. */
  async joinAsksToday(db: Queryable, ask: { phoneNumber: string; inviteId: string; groupId: string }) {
    const [row]: { number: number; invite: number; group: number }[] = await db.query(
      `SELECT count(*) FILTER (WHERE phone_number = $1)::int AS number, count(*) FILTER (WHERE invite_id = $2)::int AS invite,
         count(*) FILTER (WHERE group_id = $3)::int AS group
       FROM sms_join_ask WHERE created_at > now() - interval '1 day' AND (phone_number = $1 OR invite_id = $2 OR group_id = $3)`,
      [ask.phoneNumber, ask.inviteId, ask.groupId],
    );
    return row ?? { number: 0, invite: 0, group: 0 };
  }

  async recordJoinAsk(db: Queryable, ask: { id: string; phoneNumber: string; inviteId: string; groupId: string }): Promise<void> {
    await db.query('INSERT INTO sms_join_ask (id, phone_number, invite_id, group_id) VALUES ($1, $2, $3, $4)', [
      ask.id,
      ask.phoneNumber,
      ask.inviteId,
      ask.groupId,
    ]);
  }

  /** Serialises the budgets of one invite link and one group between replicas until the transaction ends. */
  async lockGroup(db: Queryable, groupId: string): Promise<void> {
    await db.query("SELECT pg_advisory_xact_lock(hashtextextended('sms-group:' || $1, 0))", [groupId]);
  }

  /** The group's messages, newest first; full-text (PostgreSQL, `simple` configuration) when `q` is given. */
  async messages(
    groupId: string,
    q: string | undefined,
    limit: number,
  ): Promise<{ id: string; senderLabel: string; isAssistant: boolean; body: string; createdAt: Date }[]> {
    const rows: { id: string; sender_label: string; is_assistant: boolean; body: string; created_at: string }[] = q
      ? await this.dataSource.query(
          `SELECT id, sender_label, is_assistant, body, created_at FROM sms_group_message
           WHERE group_id = $1 AND search @@ websearch_to_tsquery('simple', $2) ORDER BY created_at DESC, id DESC LIMIT $3`,
          [groupId, q, limit],
        )
      : await this.dataSource.query(
          `SELECT id, sender_label, is_assistant, body, created_at FROM sms_group_message WHERE group_id = $1
           ORDER BY created_at DESC, id DESC LIMIT $2`,
          [groupId, limit],
        );
    return rows.map((r) => ({
      id: r.id,
      senderLabel: r.sender_label,
      isAssistant: r.is_assistant,
      body: r.body,
      createdAt: new Date(r.created_at),
    }));
  }

  // ---- a member's account deleted -----------------------------------------------------------------

  /** The groups a deleted account was in (by its id or any of its numbers). */
  async ofMember(userId: string, phones: string[]): Promise<GroupRow[]> {
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT DISTINCT g.* FROM sms_group g JOIN sms_group_member m ON m.group_id = g.id WHERE m.user_id = $1 OR m.phone_number = ANY($2)`,
      [userId, phones],
    );
    return rows.map(groupOf);
  }

  /**
   * Takes a deleted member's words out of a group: what they said (gone from the search), the copies
   * relayed to the others (kept as "(removed)", so the others' texts keep their shape), their
   * membership and pending joins. Answers how many members are left.
   */
  async removeMember(groupId: string, userId: string, phones: string[]): Promise<number> {
    return this.dataSource.transaction(async (m) => {
      await m.query(
        `UPDATE outbound_message SET body = '${REMOVED}' WHERE group_id = $1 AND purpose = 'relay'
           AND inbound_id IN (SELECT id FROM inbound_message WHERE user_id = $2 OR from_number = ANY($3))`,
        [groupId, userId, phones],
      );
      await m.query('DELETE FROM sms_group_message WHERE group_id = $1 AND sender_user_id = $2', [groupId, userId]);
      await m.query('DELETE FROM sms_group_member WHERE group_id = $1 AND (user_id = $2 OR phone_number = ANY($3))', [
        groupId,
        userId,
        phones,
      ]);
      await m.query('DELETE FROM sms_group_join WHERE group_id = $1 AND phone_number = ANY($2)', [groupId, phones]);
      const [left]: { n: number }[] = await m.query('SELECT count(*)::int AS n FROM sms_group_member WHERE group_id = $1', [groupId]);
      return left?.n ?? 0;
    });
  }

  /** A member leaves a group (their words stay: the others received them); answers how many members are left. */
  async leave(groupId: string, userId: string): Promise<number> {
    return this.dataSource.transaction(async (m) => {
      const [gone]: { phone_number: string }[][] = await m.query(
        'DELETE FROM sms_group_member WHERE group_id = $1 AND user_id = $2 RETURNING phone_number',
        [groupId, userId],
      );
      const phones = gone.map((r) => r.phone_number);
      await m.query('DELETE FROM sms_group_join WHERE group_id = $1 AND phone_number = ANY($2)', [groupId, phones]);
      const [left]: { n: number }[] = await m.query('SELECT count(*)::int AS n FROM sms_group_member WHERE group_id = $1', [groupId]);
      return left?.n ?? 0;
    });
  }

  /** A deleted account's numbers leave no trace in the invitation records (pending joins, the asks' budget log). */
  async forgetNumbers(phones: string[]): Promise<void> {
    await this.dataSource.query('DELETE FROM sms_group_join WHERE phone_number = ANY($1)', [phones]);
    await this.dataSource.query('DELETE FROM sms_join_ask WHERE phone_number = ANY($1)', [phones]);
  }

  /** The group's conversation starts again (the old one held the deleted member's words). */
  async replaceChat(groupId: string, chatId: string): Promise<void> {
    await this.dataSource.query('UPDATE sms_group SET chat_id = $2 WHERE id = $1', [groupId, chatId]);
  }

  /** A group nobody is left in: gone, with its links, pending joins, invitation log and messages. */
  async remove(groupId: string): Promise<void> {
    await this.dataSource.transaction(async (m) => {
      for (const table of ['sms_group_message', 'sms_group_join', 'sms_join_ask', 'sms_group_invite', 'sms_group_member']) {
        await m.query(`DELETE FROM ${table} WHERE group_id = $1`, [groupId]);
      }
      await m.query('DELETE FROM sms_group WHERE id = $1', [groupId]);
    });
  }
}
