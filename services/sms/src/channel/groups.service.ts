import { randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import { AUTH_RPC } from '@app/contracts/auth';
import type { GroupChannel } from '@app/contracts/sms';
import { AppLogger, DomainError, RpcClient, SERVICE_CONFIG, userIdOf } from '@app/platform';
import { smsProviderOf, type SmsConfig } from '../config';
import { AssistantClient, texterCaller } from './assistant.client';
import { ChannelRepository, type InboundRow, type QueuedText } from './channel.repository';
import { GroupsRepository, type GroupRow, type MemberRow } from './groups.repository';
import { formatForPhone } from './phone-format';
import { queuedText } from './queued-text';
import { fitToSegments } from './segments';
import { CHANNEL_TEXT } from './texts';

export const GROUP_NOT_FOUND = 'This group does not exist or you are not a member.';
export const INVITE_GONE = 'This invite link has expired or was revoked.';
export const TOO_MANY_JOIN_TEXTS = 'This number was sent too many group invitations today. Please try again tomorrow.';
export const TOO_MANY_GROUPS = 'You have created too many groups today. Please try again tomorrow.';
export const TOO_MANY_INVITES = 'This group has made too many invite links today. Please try again tomorrow.';
const MAX_MEDIA_BYTES = 500 * 1024;

/** `+14155550123` → `+1•••••••0123`: how a member without a name shows to the others. */
export function maskNumber(phone: string): string {
  return `${phone.slice(0, 2)}${'•'.repeat(Math.max(0, phone.length - 6))}${phone.slice(-4)}`;
}

/** Where a member's words end in the offsets of a search hit: each query word found at a word start. */
export function highlightsOf(body: string, q: string | undefined): { start: number; end: number }[] {
  if (!q) return [];
  const words = q
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0 && w !== 'or' && w !== 'and');
  const lower = body.toLowerCase();
  const found: { start: number; end: number }[] = [];
  for (const word of new Set(words)) {
    let from = 0;
    for (;;) {
      const at = lower.indexOf(word, from);
      if (at < 0) break;
      const before = at === 0 ? '' : lower[at - 1];
      if (!/[\p{L}\p{N}]/u.test(before)) {
        let end = at + word.length;
        while (end < lower.length && /[\p{L}\p{N}]/u.test(lower[end])) end++;
        found.push({ start: at, end });
      }
      from = at + word.length;
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/**
 * Group texts. A group channel has members (numbers), a number they text (from SMS_GROUP_NUMBERS,
 * or the development group number) and its own conversation in the chat service, owned by the group
 * itself (the group's id acts as the conversation's user): the assistant answers the group without
 * any member's personal memories, and nothing said in the group is learnt into a member's memories.
 * A member's text is relayed to the others as `Name: text`; the assistant answers everyone when it
 * is addressed (its name, or a question).
 */
@Injectable()
export class GroupsService {
  private readonly pool: string[];
  private readonly name: string;

  constructor(
    private readonly groups: GroupsRepository,
    private readonly channel: ChannelRepository,
    private readonly assistant: AssistantClient,
    private readonly rpc: RpcClient,
    @Inject(SERVICE_CONFIG) private readonly config: SmsConfig,
    private readonly logger: AppLogger,
  ) {
    const twilio = smsProviderOf(config) === 'twilio';
    this.pool = config.SMS_GROUP_NUMBERS.length ? config.SMS_GROUP_NUMBERS : twilio ? [] : [config.SMS_DEV_GROUP_NUMBER];
    this.name = config.ASSISTANT_NAME;
  }

  isGroupNumber(phone: string): boolean {
    return this.pool.includes(phone);
  }

  private get provider(): string {
    return smsProviderOf(this.config);
  }

  async create(caller: Caller, name: string): Promise<GroupChannel> {
    const userId = userIdOf(caller);
    if (caller.is_anon) throw DomainError.forbidden('Sign in with your phone number to create a group.');
    const me = await this.rpc.call(AUTH_RPC.me, {}, caller);
    if (!me.phone_number) throw DomainError.forbidden('Add a phone number to your account (sign in by phone) to create a group.');
    if (!this.pool.length) throw new DomainError('unavailable', 'Group texts are not set up on this service (SMS_GROUP_NUMBERS).', 503);
    // Each group takes a conversation and texts: a day's share per account.
    if ((await this.groups.createdToday(userId)) >= this.config.SMS_GROUPS_PER_DAY) throw new DomainError('rate_limited', TOO_MANY_GROUPS);
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
    const phoneNumber = await this.groups.leastUsedNumber(this.pool);
    await this.groups.create(
      { id, channelUrl, name, phoneNumber, ownerUserId: userId, chatId },
      { phoneNumber: me.phone_number, userId, label: me.name?.trim() || maskNumber(me.phone_number) },
    );
    await this.channel.linkNumber(me.phone_number, userId);
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

  async invite(inviteId: string) {
    const live = await this.groups.liveInvite(inviteId);
    if (!live) throw DomainError.notFound(INVITE_GONE);
    const members = await this.groups.members(live.group.id);
    return { group_name: live.group.name, member_count: members.length, expires_at: live.expiresAt.toISOString() };
  }

  /**
   * The public join: the number gets a confirmation text from the group's number and joins when it
   * replies YES. Anyone may type any number here, so: at most SMS_JOIN_TEXTS_PER_NUMBER such texts
   * to a number a day (429 past it; the gateway limits each address too), and none at all to a
   * number that texted STOP. That one gets the same answer as any other (whether a number opted
   * out, or uses the service at all, is nobody else's business); it can text START, then join.
   */
  async join(inviteId: string, phoneNumber: string) {
    const live = await this.groups.liveInvite(inviteId);
    if (!live) throw DomainError.notFound(INVITE_GONE);
    if ((await this.channel.number(phoneNumber))?.optedOut) return { status: 'confirmation_sent' as const };
    const body = CHANNEL_TEXT.joinAsk(this.name, live.group.name);
    const sent = await this.channel.transaction(async (tx) => {
      if ((await tx.joinTextsToday(phoneNumber)) >= this.config.SMS_JOIN_TEXTS_PER_NUMBER) return false;
      await tx.queue(this.text(phoneNumber, live.group.phoneNumber, null, body, 'confirmation', live.group.id));
      return true;
    });
    if (!sent) throw new DomainError('rate_limited', TOO_MANY_JOIN_TEXTS);
    await this.groups.pendJoin(phoneNumber, live.group.id, inviteId);
    return { status: 'confirmation_sent' as const };
  }

  /** A YES from a number with a pending join: it becomes a member, and is told so. */
  async confirmJoin(phone: string, userId: string, name: string | null, text: InboundRow): Promise<boolean> {
    const group = await this.groups.completeJoin(phone, userId, name?.trim() || maskNumber(phone));
    if (!group) return false;
    const body = CHANNEL_TEXT.joined(this.name, group.name);
    await this.channel.transaction((tx) =>
      tx.queue({ ...this.text(phone, group.phoneNumber, userId, body, 'confirmation', group.id), inboundId: text.id }),
    );
    return true;
  }

  /** A member's text to the group number: stored, relayed to the others, answered by the assistant when addressed. */
  async relay(text: InboundRow, userId: string, _name: string | null): Promise<string | null> {
    const group = await this.groups.forMemberOnNumber(text.from, text.to);
    if (!group) return null;
    const members = await this.groups.members(group.id);
    const others = members.filter((m) => m.phoneNumber !== text.from);
    const body = text.body.trim();
    await this.channel.transaction(async (tx) => {
      await tx.groupMessage({
        id: randomUUID(),
        groupId: group.id,
        senderUserId: userId,
        senderLabel: group.label,
        isAssistant: false,
        body,
      });
      for (const member of others) {
        const relayed = fitToSegments(`${group.label}: ${body}`, this.config.SMS_MAX_SEGMENTS);
        await tx.queue({
          ...this.text(member.phoneNumber, group.phoneNumber, member.userId, relayed, 'relay', group.id),
          inboundId: text.id,
        });
      }
    });
    if (body && this.addressed(body)) await this.answerGroup(group, members, `${group.label}: ${body}`, text, userId);
    return group.id;
  }

  /** Whether a group text is for the assistant: it names it, or asks a question. */
  addressed(body: string): boolean {
    const name = this.name.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return new RegExp(`(^|[^\\p{L}\\p{N}])@?${name}([^\\p{L}\\p{N}]|$)`, 'iu').test(body) || /\?\s*$/.test(body);
  }

  private async answerGroup(group: GroupRow, members: MemberRow[], content: string, text: InboundRow, askerId: string): Promise<void> {
    // The group's identity asks, not the member: the chat service personalises with the group's own (empty) memories.
    const answer = await this.assistant.reply(texterCaller(group.id, `sms:${text.messageSid}`), group.chatId, content);
    const reply =
      answer.error && !answer.text
        ? CHANNEL_TEXT.failed(this.name)
        : fitToSegments(formatForPhone(answer.text) || '…', this.config.SMS_MAX_SEGMENTS);
    const period = new Date().toISOString().slice(0, 7);
    await this.channel.transaction(async (tx) => {
      await tx.groupMessage({
        id: randomUUID(),
        groupId: group.id,
        senderUserId: null,
        senderLabel: this.name,
        isAssistant: true,
        body: reply,
      });
      for (const member of members) {
        await tx.queue({
          ...this.text(member.phoneNumber, group.phoneNumber, member.userId, reply, 'reply', group.id),
          inboundId: text.id,
        });
      }
      // A group answer counts against the allowance of the member who asked.
      await tx.countUsage(askerId, period);
    });
  }

  /**
   * An MMS picture's bytes, or null when too big or unreachable. Twilio's media URLs take the
   * account's credentials; they are sent only to Twilio's own API origin (TWILIO_API_BASE_URL),
   * never to whatever host a media URL names (and fetch drops them on a redirect elsewhere).
   */
  async downloadMedia(url: string): Promise<Buffer | null> {
    try {
      const parsed = new URL(url);
      if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
      const headers: Record<string, string> = {};
      const twilio = parsed.origin === new URL(this.config.TWILIO_API_BASE_URL).origin;
      if (twilio && this.config.TWILIO_ACCOUNT_SID && this.config.TWILIO_AUTH_TOKEN) {
        headers.authorization = `Basic ${Buffer.from(`${this.config.TWILIO_ACCOUNT_SID}:${this.config.TWILIO_AUTH_TOKEN}`).toString('base64')}`;
      }
      const response = await fetch(parsed, { headers, redirect: 'follow', signal: AbortSignal.timeout(10_000) });
      if (!response.ok) return null;
      const data = Buffer.from(await response.arrayBuffer());
      return data.length > 0 && data.length <= MAX_MEDIA_BYTES ? data : null;
    } catch (error) {
      this.logger.warn({ msg: 'An MMS picture could not be fetched', error: String(error) }, 'GroupsService');
      return null;
    }
  }

  private async memberGroup(userId: string, channelUrl: string): Promise<GroupRow> {
    const group = await this.groups.byChannelForMember(channelUrl, userId);
    if (!group) throw DomainError.notFound(GROUP_NOT_FOUND);
    return group;
  }

  private async view(group: GroupRow, userId: string): Promise<GroupChannel> {
    const members = await this.groups.members(group.id);
    return {
      channel_url: group.channelUrl,
      name: group.name,
      phone_number: group.phoneNumber,
      created_at: group.createdAt.toISOString(),
      members: members.map((m) => ({ label: m.label, is_you: m.userId === userId })),
    };
  }

  private text(to: string, from: string, userId: string | null, body: string, purpose: QueuedText['purpose'], groupId: string): QueuedText {
    return queuedText({ to, from, body, purpose, provider: this.provider, userId, groupId });
  }
}
