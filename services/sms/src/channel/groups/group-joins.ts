import { randomInt, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DomainError, SERVICE_CONFIG } from '@app/platform';
import type { SmsConfig } from '../../config';
import { destinationRefusal, type DestinationPolicy } from '../destinations';
import { DESTINATION_POLICY, OutboundQueue } from '../outbound-queue';
import { queuedText } from '../queued-text';
import { ServiceNumbers } from '../service-numbers';
import { ChannelUnitOfWork, type ChannelTransaction } from '../store/channel-unit-of-work';
import { GroupsRepository, type PendingJoin } from '../store/groups.repository';
import { NumbersRepository } from '../store/numbers.repository';
import { CHANNEL_TEXT, safeLabel } from '../texts';
import { INVITE_GONE } from './groups.service';
import { memberLabel } from './group-text';
import { GroupNumberPool } from './number-pool';

export const TOO_MANY_JOIN_TEXTS = 'This number was sent too many group invitations today. Please try again tomorrow.';
export const TOO_MANY_INVITE_TEXTS = 'This invite link has sent too many invitations today. Please try again tomorrow.';
export const TOO_MANY_GROUP_TEXTS = 'This group has sent too many invitations today. Please try again tomorrow.';
export const NOT_TEXTABLE = 'This number cannot receive texts from this service.';
export const REGION_BLOCKED = 'The assistant is not available in that region.';
export const JOIN_FULL = (numbers: number) =>
  `This number is already in ${numbers} group${numbers === 1 ? '' : 's'} here, as many as this service has group numbers. It was told so by text.`;

/** How a group and its inviter are named in a text to a stranger's phone (see safeLabel). */
const GROUP_NAME_MAX = 30;
const INVITER_MAX = 24;

export type JoinConfig = Pick<
  SmsConfig,
  | 'ASSISTANT_NAME'
  | 'SMS_JOIN_TEXTS_PER_NUMBER'
  | 'SMS_JOIN_TEXTS_PER_INVITE'
  | 'SMS_JOIN_TEXTS_PER_GROUP'
  | 'SMS_KEYWORD_REPLY_WINDOW_HOURS'
>;

type AskOutcome = 'sent' | 'quiet' | 'number' | 'invite' | 'group' | 'full';

/**
 * Joining a group by invitation. The public invite page asks for a number; the number gets one
 * text ("Olga invited you to the group text "Family". Reply YES to join.") from the number of the
 * pool the group will be on for it, and joins when it answers. Anyone may type any number, so:
 *
 * - never a number the service does not text (a blocked region, a satellite or non-mobile range,
 *   its own numbers), nor one that texted STOP (it gets the same answer as any other);
 * - at most SMS_JOIN_TEXTS_PER_NUMBER invitations to a number, SMS_JOIN_TEXTS_PER_INVITE from one
 *   link and SMS_JOIN_TEXTS_PER_GROUP from one group a day (429 past any);
 * - the names in the text are sanitised (no link, no number to call) and short;
 * - a YES is never ambiguous: while two invitations wait for one number, a bare YES joins neither,
 *   and the number is sent the list with a code each (`Reply JOIN 4821 for "Family"`);
 * - each of a member's groups is on a number that carries no other of theirs: when none is left
 *   the join is refused (409, and a text that says so).
 */
@Injectable()
export class GroupJoins {
  constructor(
    @Inject(SERVICE_CONFIG) private readonly config: JoinConfig,
    private readonly groups: GroupsRepository,
    private readonly numbers: NumbersRepository,
    private readonly store: ChannelUnitOfWork,
    private readonly outbound: OutboundQueue,
    private readonly pool: GroupNumberPool,
    private readonly service: ServiceNumbers,
    @Inject(DESTINATION_POLICY) private readonly destinations: DestinationPolicy,
  ) {}

  /** The public join (`POST /api/v1/sms/group-invites/{id}/join`). */
  async ask(inviteId: string, phone: string): Promise<{ status: 'confirmation_sent' }> {
    const live = await this.groups.liveInvite(inviteId);
    if (!live) throw DomainError.notFound(INVITE_GONE);
    const refusal = destinationRefusal(phone, this.destinations);
    if (refusal === 'blocked_region') throw new DomainError('forbidden', REGION_BLOCKED, 451);
    if (refusal) throw new DomainError('validation_failed', NOT_TEXTABLE, 422);
    // Whether a number opted out, or uses the service at all, is nobody else's business: same answer, no text.
    if ((await this.numbers.number(phone))?.optedOut) return { status: 'confirmation_sent' };
    const group = live.group;
    const inviter = safeLabel(live.inviterLabel ?? '', INVITER_MAX, 'A member');
    const { result, queued } = await this.store.transaction(async (tx): Promise<AskOutcome> => {
      await tx.lockNumber(phone);
      await this.groups.lockGroup(tx.db, group.id);
      if (await this.groups.isMember(group.id, phone, tx.db)) return 'quiet';
      const asked = await this.groups.joinAsksToday(tx.db, { phoneNumber: phone, inviteId, groupId: group.id });
      if (asked.number >= this.config.SMS_JOIN_TEXTS_PER_NUMBER) return 'number';
      if (asked.invite >= this.config.SMS_JOIN_TEXTS_PER_INVITE) return 'invite';
      if (asked.group >= this.config.SMS_JOIN_TEXTS_PER_GROUP) return 'group';
      await this.groups.recordJoinAsk(tx.db, { id: randomUUID(), phoneNumber: phone, inviteId, groupId: group.id });
      const memberships = await this.groups.numbersInUse(phone, tx.db);
      const others = (await this.groups.pendingJoins(phone, tx.db)).filter((p) => p.groupId !== group.id);
      // A number free of the phone's groups, and of its other invitations when one is.
      const serviceNumber =
        this.pool.freeNumber([...memberships, ...others.map((p) => p.serviceNumber)], group.phoneNumber) ??
        this.pool.freeNumber(memberships);
      const name = this.config.ASSISTANT_NAME;
      const groupName = safeLabel(group.name, GROUP_NAME_MAX, 'a group');
      if (!serviceNumber) {
        await tx.queue(
          this.text(phone, this.service.assistant, CHANNEL_TEXT.joinFull(name, groupName, this.pool.numbers.length), group.id),
        );
        return 'full';
      }
      const join = { groupId: group.id, inviteId, serviceNumber, code: uniqueCode(others), inviterLabel: inviter };
      await this.groups.pendJoin(tx.db, phone, join);
      const pending = [...others, { ...join, groupName: group.name }];
      const body =
        pending.length === 1
          ? CHANNEL_TEXT.joinAsk(name, inviter, groupName)
          : CHANNEL_TEXT.joinList(
              name,
              pending.map((p) => ({ code: p.code, group: safeLabel(p.groupName, GROUP_NAME_MAX, 'a group'), inviter: p.inviterLabel })),
            );
      await tx.queue(this.text(phone, serviceNumber, body, group.id));
      return 'sent';
    });
    await this.outbound.sendNow(queued);
    if (result === 'number') throw new DomainError('rate_limited', TOO_MANY_JOIN_TEXTS);
    if (result === 'invite') throw new DomainError('rate_limited', TOO_MANY_INVITE_TEXTS);
    if (result === 'group') throw new DomainError('rate_limited', TOO_MANY_GROUP_TEXTS);
    if (result === 'full') throw DomainError.conflict(JOIN_FULL(this.pool.numbers.length));
    return { status: 'confirmation_sent' };
  }

  /**
   * The number answered YES (code null) or `JOIN 4821`, in the transaction of its answer: joins the
   * one invitation it means, on its own number of the pool; answers the outcome stored on the text.
   */
  async confirm(
    tx: ChannelTransaction,
    text: { id: string; from: string; to: string },
    account: { userId: string; name: string | null },
    code: string | null,
  ): Promise<{ status: string; groupId?: string }> {
    const phone = text.from;
    const name = this.config.ASSISTANT_NAME;
    const window = this.config.SMS_KEYWORD_REPLY_WINDOW_HOURS;
    await tx.lockNumber(phone);
    const pending = await this.groups.pendingJoins(phone, tx.db);
    const reply = async (kind: 'join_list' | 'join_code', body: string) => {
      if (await tx.claimKeywordReply(phone, kind, account.userId, window))
        await tx.queue(this.text(phone, text.to, body, null, account.userId, text.id));
    };
    const chosen = code ? pending.find((p) => p.code === code) : pending.length === 1 ? pending[0] : undefined;
    if (!chosen) {
      if (code || pending.length === 0) {
        await reply('join_code', CHANNEL_TEXT.joinUnknownCode(name));
        return { status: 'join_code_unknown' };
      }
      await reply(
        'join_list',
        CHANNEL_TEXT.joinList(
          name,
          pending.map((p) => ({ code: p.code, group: safeLabel(p.groupName, GROUP_NAME_MAX, 'a group'), inviter: p.inviterLabel })),
        ),
      );
      return { status: 'join_ambiguous' };
    }
    await this.groups.dropPendingJoin(tx.db, phone, chosen.groupId);
    const serviceNumber = this.pool.freeNumber(await this.groups.numbersInUse(phone, tx.db), chosen.serviceNumber);
    const groupName = safeLabel(chosen.groupName, GROUP_NAME_MAX, 'a group');
    if (!serviceNumber) {
      await tx.queue(
        this.text(
          phone,
          text.to,
          CHANNEL_TEXT.joinFull(name, groupName, this.pool.numbers.length),
          chosen.groupId,
          account.userId,
          text.id,
        ),
      );
      return { status: 'join_refused_full', groupId: chosen.groupId };
    }
    const added = await this.groups.addMember(tx.db, chosen.groupId, {
      phoneNumber: phone,
      userId: account.userId,
      label: memberLabel(account.name, phone),
      serviceNumber,
    });
    if (!added) return { status: 'already_member', groupId: chosen.groupId };
    await tx.queue(this.text(phone, serviceNumber, CHANNEL_TEXT.joined(name, groupName), chosen.groupId, account.userId, text.id));
    return { status: 'joined_group', groupId: chosen.groupId };
  }

  private text(
    to: string,
    from: string,
    body: string,
    groupId: string | null,
    userId: string | null = null,
    inboundId: string | null = null,
  ) {
    return queuedText({ to, from, body, purpose: 'confirmation', provider: this.service.provider, userId, groupId, inboundId });
  }
}

/** A four-digit code none of the other waiting invitations has. */
function uniqueCode(others: Pick<PendingJoin, 'code'>[]): string {
  for (;;) {
    const code = String(randomInt(1000, 10_000));
    if (!others.some((p) => p.code === code)) return code;
  }
}
