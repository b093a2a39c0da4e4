import { randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import { AUTH_RPC } from '@app/contracts/auth';
import type { GroupChannel } from '@app/contracts/sms';
import { DomainError, RpcClient, SERVICE_CONFIG, userIdOf } from '@app/platform';
import type { SmsConfig } from '../../config';
import { AssistantClient, texterCaller } from '../assistant.client';
import { GroupsRepository, type Membership } from '../store/groups.repository';
import { NumbersRepository } from '../store/numbers.repository';
import { highlightsOf, memberLabel } from './group-text';
import { GroupNumberPool } from './number-pool';

export const GROUP_NOT_FOUND = 'This group does not exist or you are not a member.';
export const INVITE_GONE = 'This invite link has expired or was revoked.';
export const TOO_MANY_GROUPS = 'You have created too many groups today. Please try again tomorrow.';
export const TOO_MANY_INVITES = 'This group has made too many invite links today. Please try again tomorrow.';
export const GROUPS_FULL = (numbers: number) =>
  `You are already in ${numbers} group${numbers === 1 ? '' : 's'}, as many as this service has group numbers. Leave one to create another.`;

/**
 * Group texts as the portal sees them. A group channel has members, each texting it on their own
 * number of the pool (GroupNumberPool), and its own conversation in the chat service, owned by the
 * group itself (the group's id acts as the conversation's user): the assistant answers the group
 * without any member's personal memories, and nothing said in the group is learnt into a member's
 * memories. Invitations and what members text are GroupJoins' and the inbound pipeline's.
 */
@Injectable()
export class GroupsService {
  constructor(
    private readonly groups: GroupsRepository,
    private readonly numbers: NumbersRepository,
    private readonly pool: GroupNumberPool,
    private readonly assistant: AssistantClient,
    private readonly rpc: RpcClient,
    @Inject(SERVICE_CONFIG)
    private readonly config: Pick<SmsConfig, 'SMS_GROUPS_PER_DAY' | 'SMS_INVITES_PER_GROUP_PER_DAY' | 'SMS_GROUP_INVITE_TTL_HOURS'>,
  ) {}

  /** A new group, the caller its first member on a number of the pool that carries none of their groups (409 when none is left). */
  async create(caller: Caller, name: string): Promise<GroupChannel> {
    const userId = userIdOf(caller);
    if (caller.is_anon) throw DomainError.forbidden('Sign in with your phone number to create a group.');
    const me = await this.rpc.call(AUTH_RPC.me, {}, caller);
    if (!me.phone_number) throw DomainError.forbidden('Add a phone number to your account (sign in by phone) to create a group.');
    if (!this.pool.numbers.length)
      throw new DomainError('unavailable', 'Group texts are not set up on this service (SMS_GROUP_NUMBERS).', 503);
    // Each group takes a conversation and texts: a day's share per account.
    if ((await this.groups.createdToday(userId)) >= this.config.SMS_GROUPS_PER_DAY) throw new DomainError('rate_limited', TOO_MANY_GROUPS);
    const phoneNumber = this.pool.freeNumber(await this.groups.numbersInUse(me.phone_number));
    if (!phoneNumber) throw DomainError.conflict(GROUPS_FULL(this.pool.numbers.length));
    const id = randomUUID();
    const slug =
      name
        .toLowerCase()
        .normalize('NFKD')
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 40) || 'group';
    const channelUrl = `${slug}-${randomBytes(4).toString('hex')}`;
    // The group's own conversation: the group's id is its owner, so no member's memories are in it.
    const chatId = await this.assistant.newConversation(texterCaller(id, caller.request_id), name, { shared: true });
    const created = await this.groups.create(
      { id, channelUrl, name, phoneNumber, ownerUserId: userId, chatId },
      { phoneNumber: me.phone_number, userId, label: memberLabel(me.name, me.phone_number), serviceNumber: phoneNumber },
    );
    // Another creation took the number at the same instant: the caller may try again.
    if (!created) throw DomainError.conflict(GROUPS_FULL(this.pool.numbers.length));
    await this.numbers.link(me.phone_number, userId);
    return this.view((await this.groups.byChannelForMember(channelUrl, userId))!, userId);
  }

  async list(caller: Caller): Promise<{ groups: GroupChannel[] }> {
    const userId = userIdOf(caller);
    const groups = await this.groups.ofUser(userId);
    return { groups: await Promise.all(groups.map((g) => this.view(g, userId))) };
  }

  async get(caller: Caller, channelUrl: string): Promise<GroupChannel> {
    const userId = userIdOf(caller);
    return this.view(await this.memberGroup(userId, channelUrl), userId);
  }

  async messages(caller: Caller, channelUrl: string, q: string | undefined, limit: number) {
    const group = await this.memberGroup(userIdOf(caller), channelUrl);
    const rows = await this.groups.messages(group.id, q || undefined, limit);
    return {
      results: rows.map((r) => ({
        message_id: r.id,
        sender: r.senderLabel,
        is_assistant: r.isAssistant,
        body: r.body,
        created_at: r.createdAt.toISOString(),
        highlights: highlightsOf(r.body, q),
      })),
    };
  }

  async createInvite(caller: Caller, channelUrl: string) {
    const userId = userIdOf(caller);
    const group = await this.memberGroup(userId, channelUrl);
    if ((await this.groups.invitesToday(group.id)) >= this.config.SMS_INVITES_PER_GROUP_PER_DAY) {
      throw new DomainError('rate_limited', TOO_MANY_INVITES);
    }
    const id = randomBytes(18).toString('base64url');
    const expiresAt = new Date(Date.now() + this.config.SMS_GROUP_INVITE_TTL_HOURS * 3600_000);
    await this.groups.addInvite({ id, groupId: group.id, createdBy: userId, expiresAt });
    return { invite_id: id, url: `/group-search/invite/${id}`, expires_at: expiresAt.toISOString() };
  }

  async revokeInvite(caller: Caller, channelUrl: string, inviteId: string) {
    const group = await this.memberGroup(userIdOf(caller), channelUrl);
    if (!(await this.groups.revokeInvite(group.id, inviteId))) throw DomainError.notFound(INVITE_GONE);
    return { revoked: true };
  }

  /**
   * The caller leaves a group: their number for it is free again; what they said stays in the
   * group (the others received it). The last member to leave takes the group with them.
   */
  async leave(caller: Caller, channelUrl: string): Promise<{ left: true }> {
    const userId = userIdOf(caller);
    const group = await this.memberGroup(userId, channelUrl);
    const left = await this.groups.leave(group.id, userId);
    if (left === 0) {
      await this.groups.remove(group.id);
      await this.assistant.removeConversation(texterCaller(group.id, caller.request_id), group.chatId);
    }
    return { left: true };
  }

  async invite(inviteId: string) {
    const live = await this.groups.liveInvite(inviteId);
    if (!live) throw DomainError.notFound(INVITE_GONE);
    const members = await this.groups.members(live.group.id);
    return { group_name: live.group.name, member_count: members.length, expires_at: live.expiresAt.toISOString() };
  }

  private async memberGroup(userId: string, channelUrl: string): Promise<Membership> {
    const group = await this.groups.byChannelForMember(channelUrl, userId);
    if (!group) throw DomainError.notFound(GROUP_NOT_FOUND);
    return group;
  }

  /** The group as one member sees it: the number *they* text it on. */
  private async view(group: Membership, userId: string): Promise<GroupChannel> {
    const members = await this.groups.members(group.id);
    return {
      channel_url: group.channelUrl,
      name: group.name,
      phone_number: group.serviceNumber ?? '',
      created_at: group.createdAt.toISOString(),
      members: members.map((m) => ({ label: m.label, is_you: m.userId === userId })),
    };
  }
}
