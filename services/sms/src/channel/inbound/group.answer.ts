import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { SERVICE_CONFIG } from '@app/platform';
import type { SmsConfig } from '../../config';
import { AssistantClient, texterCaller } from '../assistant.client';
import { queuedText } from '../queued-text';
import { fitToSegments } from '../segments';
import { ServiceNumbers } from '../service-numbers';
import { GroupsRepository, type MemberRow, type Membership } from '../store/groups.repository';
import { CHANNEL_TEXT } from '../texts';
import { Allowance, type NoticeAddress } from './allowance';
import { accountOf, type InboundContext } from './inbound-context';
import { forPhone } from './reply.answer';

export type GroupAnswerConfig = Pick<SmsConfig, 'ASSISTANT_NAME' | 'SMS_MAX_SEGMENTS'>;

/** Whether a group text is for the assistant: it names it, or asks a question. */
export function addressesAssistant(body: string, assistantName: string): boolean {
  const name = assistantName.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\p{L}\\p{N}])@?${name}([^\\p{L}\\p{N}]|$)`, 'iu').test(body) || /\?\s*$/.test(body);
}

/**
 * A member's text to their group: stored (searchable in the portal), relayed to every other member
 * as `Label: text`, each copy from the number that member has the group on; the assistant answers
 * everyone when addressed (its name, or a question), in the group's own conversation (owned by the
 * group: no member's memories, nothing learnt into them). Every copy counts against the sender's
 * allowance; a relay the allowance cannot cover is not sent (the limit notice goes once a month).
 */
@Injectable()
export class GroupAnswer {
  constructor(
    @Inject(SERVICE_CONFIG) private readonly config: GroupAnswerConfig,
    @Inject(GroupsRepository) private readonly groups: Pick<GroupsRepository, 'reachableMembers'>,
    @Inject(AssistantClient) private readonly assistant: Pick<AssistantClient, 'reply'>,
    @Inject(Allowance) private readonly allowance: Pick<Allowance, 'fits' | 'count' | 'refused'>,
    @Inject(ServiceNumbers) private readonly service: Pick<ServiceNumbers, 'provider'>,
  ) {}

  async run(ctx: InboundContext, group: Membership): Promise<void> {
    const { userId } = accountOf(ctx);
    const text = ctx.text;
    const body = text.body.trim();
    ctx.groupId = group.id;
    if (!body) {
      ctx.status = 'empty';
      return;
    }
    // Members without a number (none was free for them) or who texted STOP are neither written to nor counted.
    const members = await this.groups.reachableMembers(group.id);
    const others = members.filter((m) => m.phoneNumber !== text.from);
    const address: NoticeAddress = { to: text.from, from: text.to, provider: this.service.provider, inboundId: text.id };
    if (!(await this.allowance.fits(userId, others.length))) {
      ctx.status = 'over_allowance';
      ctx.writes.push((tx) => this.allowance.refused(tx, userId, address));
      return;
    }
    const relayed = fitToSegments(`${group.label}: ${body}`, this.config.SMS_MAX_SEGMENTS);
    ctx.status = 'relayed';
    ctx.writes.push(async (tx) => {
      await tx.groupMessage({
        id: randomUUID(),
        groupId: group.id,
        senderUserId: userId,
        senderLabel: group.label,
        isAssistant: false,
        body,
      });
      for (const member of others) await tx.queue(this.copy(member, relayed, 'relay', group.id, text.id));
      await this.allowance.count(tx, userId, others.length, address);
    });
    if (addressesAssistant(body, this.config.ASSISTANT_NAME))
      ctx.followUp = () => this.answer(ctx, group, members, `${group.label}: ${body}`, address);
  }

  /** The assistant's answer to the whole group, asked as the group itself (its own conversation, no member's memories). */
  private async answer(
    ctx: InboundContext,
    group: Membership,
    members: MemberRow[],
    content: string,
    address: NoticeAddress,
  ): Promise<void> {
    const { userId } = accountOf(ctx);
    if (!(await this.allowance.fits(userId, members.length))) {
      ctx.writes.push((tx) => this.allowance.refused(tx, userId, address));
      return;
    }
    const answer = await this.assistant.reply(texterCaller(group.id, `sms:${ctx.text.messageSid}`), group.chatId, content);
    const failed = Boolean(answer.error && !answer.text);
    const reply = failed ? CHANNEL_TEXT.failed(this.config.ASSISTANT_NAME) : forPhone(answer.text, this.config.SMS_MAX_SEGMENTS);
    ctx.writes.push(async (tx) => {
      await tx.groupMessage({
        id: randomUUID(),
        groupId: group.id,
        senderUserId: null,
        senderLabel: this.config.ASSISTANT_NAME,
        isAssistant: true,
        body: reply,
      });
      for (const member of members) await tx.queue(this.copy(member, reply, 'reply', group.id, ctx.text.id));
      if (!failed) await this.allowance.count(tx, userId, members.length, address);
    });
  }

  private copy(member: MemberRow, body: string, purpose: 'relay' | 'reply', groupId: string, inboundId: string) {
    return queuedText({
      to: member.phoneNumber,
      from: member.serviceNumber!,
      body,
      purpose,
      provider: this.service.provider,
      userId: member.userId,
      groupId,
      inboundId,
    });
  }
}
