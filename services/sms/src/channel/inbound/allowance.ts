import { Inject, Injectable } from '@nestjs/common';
import { SMS_EVENTS } from '@app/contracts/sms';
import { SERVICE_CONFIG } from '@app/platform';
import type { SmsConfig } from '../../config';
import { queuedText } from '../queued-text';
import type { ChannelTransaction } from '../store/channel-unit-of-work';
import { NumbersRepository } from '../store/numbers.repository';
import { CHANNEL_TEXT } from '../texts';

/** The calendar month (UTC) usage counts in: `2026-11`. */
export const periodOf = (now: Date): string => now.toISOString().slice(0, 7);

/** Where a notice to the account goes: back to the number that texted, from the number it texted. */
export interface NoticeAddress {
  to: string;
  from: string;
  provider: string;
  /** The text that was answered (null: a text nobody sent in, such as a reminder). */
  inboundId: string | null;
}

export type AllowanceConfig = Pick<
  SmsConfig,
  'SMS_MONTHLY_ALLOWANCE' | 'SMS_USAGE_NOTICE_SHARE' | 'SMS_CREDIT_NOTICE_BELOW' | 'ASSISTANT_NAME'
>;

/**
 * The month's allowance of an account (SMS_MONTHLY_ALLOWANCE): every text sent on its behalf
 * counts, the assistant's replies to it, each copy of its group texts relayed to another member,
 * and each copy of the assistant's answer to a group question it asked. Counting queues the
 * notices it triggers (nearing the limit, at the limit, low credit: each once a month) and the
 * usage event, in the answer's transaction.
 */
@Injectable()
export class Allowance {
  constructor(
    @Inject(SERVICE_CONFIG) private readonly config: AllowanceConfig,
    @Inject(NumbersRepository) private readonly numbers: Pick<NumbersRepository, 'usage'>,
  ) {}

  /** Whether `texts` more fit in the account's month (a read: the count itself is in the transaction). */
  async fits(userId: string, texts: number, now = new Date()): Promise<boolean> {
    return (await this.numbers.usage(userId, periodOf(now))) + texts <= this.config.SMS_MONTHLY_ALLOWANCE;
  }

  /** Counts `texts` sent on the account's behalf; queues the notices owed and the usage event. */
  async count(tx: ChannelTransaction, userId: string, texts: number, address: NoticeAddress, now = new Date()): Promise<void> {
    if (texts <= 0) return;
    const period = periodOf(now);
    const allowance = this.config.SMS_MONTHLY_ALLOWANCE;
    const used = await tx.countUsage(userId, period, texts);
    const key = `${userId}:${period}`;
    const name = this.config.ASSISTANT_NAME;
    if (used >= allowance) {
      await tx.notice({ kind: 'limit', eventKey: key, text: this.notice(address, userId, CHANNEL_TEXT.limit(name, allowance)) });
    } else if (used >= Math.ceil(allowance * this.config.SMS_USAGE_NOTICE_SHARE)) {
      await tx.notice({ kind: 'usage', eventKey: key, text: this.notice(address, userId, CHANNEL_TEXT.usage(name, used, allowance)) });
    }
    const left = allowance - used;
    if (used < allowance && this.config.SMS_CREDIT_NOTICE_BELOW > 0 && left < this.config.SMS_CREDIT_NOTICE_BELOW) {
      await tx.notice({ kind: 'credit', eventKey: key, text: this.notice(address, userId, CHANNEL_TEXT.credit(name, left)) });
    }
    await tx.event(
      SMS_EVENTS.usage,
      { user_id: userId, period, texts_used: used, monthly_allowance: allowance },
      `sms-usage:${userId}:${period}:${used}`,
    );
  }

  /** What refused for the allowance owes: the limit notice, once a month. */
  async refused(tx: ChannelTransaction, userId: string, address: NoticeAddress, now = new Date()): Promise<void> {
    const allowance = this.config.SMS_MONTHLY_ALLOWANCE;
    await tx.notice({
      kind: 'limit',
      eventKey: `${userId}:${periodOf(now)}`,
      text: this.notice(address, userId, CHANNEL_TEXT.limit(this.config.ASSISTANT_NAME, allowance)),
    });
  }

  private notice(address: NoticeAddress, userId: string, body: string) {
    return queuedText({
      to: address.to,
      from: address.from,
      body,
      purpose: 'notice',
      provider: address.provider,
      userId,
      inboundId: address.inboundId,
    });
  }
}
