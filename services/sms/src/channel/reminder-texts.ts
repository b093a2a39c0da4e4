import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import { AUTH_RPC } from '@app/contracts/auth';
import { E164Schema, type REMINDER_TEXT_OUTCOMES } from '@app/contracts/sms';
import { RpcClient, userIdOf } from '@app/platform';
import { Allowance } from './inbound/allowance';
import { OutboundQueue } from './outbound-queue';
import { queuedText } from './queued-text';
import { ServiceNumbers } from './service-numbers';
import { ChannelUnitOfWork } from './store/channel-unit-of-work';
import { NumbersRepository } from './store/numbers.repository';
import { OutboundRepository } from './store/outbound.repository';

export type ReminderTextOutcome = (typeof REMINDER_TEXT_OUTCOMES)[number];

/** The queued text's id for a reminder: the same every time it is asked for, so it is queued once. */
export function reminderTextId(reminderId: string): string {
  const hex = createHash('sha256').update(`reminder-text:${reminderId}`).digest('hex');
  // A version-5-shaped UUID (the column is a uuid).
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * A reminder's text, asked for by the chat service (which owns reminders) at its time: to the
 * account's number from the assistant's number, through the outbound queue like any text (the
 * number's STOP, the operator's ceilings), counted against the month's allowance. Once per reminder:
 * its queued text's id comes from the reminder's id, and a second request finds it queued.
 */
@Injectable()
export class ReminderTexts {
  constructor(
    @Inject(ChannelUnitOfWork) private readonly store: Pick<ChannelUnitOfWork, 'transaction'>,
    @Inject(NumbersRepository) private readonly numbers: Pick<NumbersRepository, 'numberOfUser' | 'number'>,
    @Inject(OutboundRepository) private readonly outbound: Pick<OutboundRepository, 'status'>,
    @Inject(OutboundQueue) private readonly queue: Pick<OutboundQueue, 'sendNow'>,
    @Inject(Allowance) private readonly allowance: Pick<Allowance, 'fits' | 'count'>,
    @Inject(ServiceNumbers) private readonly service: Pick<ServiceNumbers, 'assistant' | 'provider'>,
    @Inject(RpcClient) private readonly rpc: Pick<RpcClient, 'call'>,
  ) {}

  async deliver(caller: Caller, reminderId: string, body: string): Promise<ReminderTextOutcome> {
    const userId = userIdOf(caller);
    const id = reminderTextId(reminderId);
    if ((await this.outbound.status(id)) !== null) return 'duplicate';
    const phone = await this.numberOf(caller, userId);
    if (!phone) return 'no_number';
    if ((await this.numbers.number(phone))?.optedOut) return 'opted_out';
    if (!(await this.allowance.fits(userId, 1))) return 'over_allowance';
    const text = {
      ...queuedText({ to: phone, from: this.service.assistant, body, purpose: 'notice', provider: this.service.provider, userId }),
      id,
    };
    const { result, queued } = await this.store.transaction(async (tx) => {
      // One request per number at a time: a second one for this reminder waits, then finds its text.
      await tx.lockNumber(phone);
      if ((await this.outbound.status(id)) !== null) return 'duplicate' as const;
      await tx.queue(text);
      await this.allowance.count(tx, userId, 1, {
        to: phone,
        from: this.service.assistant,
        provider: this.service.provider,
        inboundId: null,
      });
      return 'queued' as const;
    });
    await this.queue.sendNow(queued);
    return result;
  }

  /** The account's number: the one it texts from, else the one it signs in with. */
  private async numberOf(caller: Caller, userId: string): Promise<string | null> {
    const known = await this.numbers.numberOfUser(userId);
    const phone = known?.phone ?? (caller.is_anon ? null : (await this.rpc.call(AUTH_RPC.me, {}, caller)).phone_number);
    return phone && E164Schema.safeParse(phone).success ? phone : null;
  }
}
