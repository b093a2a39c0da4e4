import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export interface GroupRow {
  id: string;
  channelUrl: string;
  name: string;
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

/** Group channels, members, invites, pending joins and the group's messages (schema `sms`). */
@Injectable()
export class GroupsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async create(group: Omit<GroupRow, 'createdAt'>, owner: MemberRow): Promise<void> {
    await this.dataSource.transaction(async (m) => {
      await m.query('INSERT INTO sms_group (id, channel_url, name, phone_number, owner_user_id, chat_id) VALUES ($1, $2, $3, $4, $5, $6)', [
        group.id,
        group.channelUrl,
        group.name,
        group.phoneNumber,
        group.ownerUserId,
        group.chatId,
      ]);
      await m.query('INSERT INTO sms_group_member (group_id, phone_number, user_id, label) VALUES ($1, $2, $3, $4)', [
        group.id,
        owner.phoneNumber,
        owner.userId,
        owner.label,
      ]);
    });
  }

  /** The number with the fewest groups (spreads groups over the pool). */
  async leastUsedNumber(pool: string[]): Promise<string> {
    const rows: { phone_number: string; n: number }[] = await this.dataSource.query(
      'SELECT phone_number, count(*)::int AS n FROM sms_group WHERE phone_number = ANY($1) GROUP BY phone_number',
      [pool],
    );
    const used = new Map(rows.map((r) => [r.phone_number, r.n]));
    return [...pool].sort((a, b) => (used.get(a) ?? 0) - (used.get(b) ?? 0))[0];
  }

  async byChannelForMember(channelUrl: string, userId: string): Promise<GroupRow | null> {
    const [row]: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT g.* FROM sms_group g JOIN sms_group_member m ON m.group_id = g.id WHERE g.channel_url = $1 AND m.user_id = $2 LIMIT 1`,
      [channelUrl, userId],
    );
    return row ? groupOf(row) : null;
  }

  async ofUser(userId: string): Promise<GroupRow[]> {
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT DISTINCT g.* FROM sms_group g JOIN sms_group_member m ON m.group_id = g.id WHERE m.user_id = $1 ORDER BY g.created_at DESC`,
      [userId],
    );
    return rows.map(groupOf);
  }

  /** The group a number texts on a group number: the one it joined last there. */
  async forMemberOnNumber(phoneNumber: string, groupNumber: string): Promise<(GroupRow & { label: string }) | null> {
    const [row]: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT g.*, m.label FROM sms_group g JOIN sms_group_member m ON m.group_id = g.id
       WHERE m.phone_number = $1 AND g.phone_number = $2 ORDER BY m.joined_at DESC LIMIT 1`,
      [phoneNumber, groupNumber],
    );
    return row ? { ...groupOf(row), label: row.label as string } : null;
  }

  async members(groupId: string): Promise<MemberRow[]> {
    const rows: { phone_number: string; user_id: string; label: string }[] = await this.dataSource.query(
      'SELECT phone_number, user_id, label FROM sms_group_member WHERE group_id = $1 ORDER BY joined_at, phone_number',
      [groupId],
    );
    return rows.map((r) => ({ phoneNumber: r.phone_number, userId: r.user_id, label: r.label }));
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

  /** A live invite (not expired, not revoked) and its group. */
  async liveInvite(inviteId: string): Promise<{ group: GroupRow; expiresAt: Date } | null> {
    const [row]: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT g.*, i.expires_at AS invite_expires_at FROM sms_group_invite i JOIN sms_group g ON g.id = i.group_id
       WHERE i.id = $1 AND i.revoked_at IS NULL AND i.expires_at > now()`,
      [inviteId],
    );
    return row ? { group: groupOf(row), expiresAt: new Date(row.invite_expires_at as string) } : null;
  }

  async pendJoin(phoneNumber: string, groupId: string, inviteId: string): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO sms_group_join (phone_number, group_id, invite_id) VALUES ($1, $2, $3)
       ON CONFLICT (phone_number, group_id) DO UPDATE SET invite_id = EXCLUDED.invite_id, created_at = now()`,
      [phoneNumber, groupId, inviteId],
    );
  }

  /**
   * Turns the newest pending join of a number (whose invite still lives, asked within a day) into a
   * membership; answers the group joined, or null when nothing was pending.
   */
  async completeJoin(phoneNumber: string, userId: string, label: string): Promise<GroupRow | null> {
    return this.dataSource.transaction(async (m) => {
      const [row]: Record<string, unknown>[] = await m.query(
        `SELECT g.* FROM sms_group_join j JOIN sms_group g ON g.id = j.group_id JOIN sms_group_invite i ON i.id = j.invite_id
         WHERE j.phone_number = $1 AND i.revoked_at IS NULL AND i.expires_at > now() AND j.created_at > now() - interval '1 day'
         ORDER BY j.created_at DESC LIMIT 1 FOR UPDATE OF j`,
        [phoneNumber],
      );
      if (!row) return null;
      const group = groupOf(row);
      await m.query('DELETE FROM sms_group_join WHERE phone_number = $1 AND group_id = $2', [phoneNumber, group.id]);
      await m.query(
        `INSERT INTO sms_group_member (group_id, phone_number, user_id, label) VALUES ($1, $2, $3, $4)
         ON CONFLICT (group_id, phone_number) DO NOTHING`,
        [group.id, phoneNumber, userId, label],
      );
      return group;
    });
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

  /** The group's conversation starts again (the old one held the deleted member's words). */
  async replaceChat(groupId: string, chatId: string): Promise<void> {
    await this.dataSource.query('UPDATE sms_group SET chat_id = $2 WHERE id = $1', [groupId, chatId]);
  }

  /** A group nobody is left in: gone, with its links, pending joins and messages. */
  async remove(groupId: string): Promise<void> {
    await this.dataSource.transaction(async (m) => {
      for (const table of ['sms_group_message', 'sms_group_join', 'sms_group_invite', 'sms_group_member']) {
        await m.query(`DELETE FROM ${table} WHERE group_id = $1`, [groupId]);
      }
      await m.query('DELETE FROM sms_group WHERE id = $1', [groupId]);
    });
  }
}
