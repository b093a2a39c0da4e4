import { Inject, Injectable } from '@nestjs/common';
import { SERVICE_CONFIG } from '@app/platform';
import { smsProviderOf, type SmsConfig } from '../../config';

/**
 * The group numbers (SMS_GROUP_NUMBERS, or SMS_DEV_GROUP_NUMBERS without Twilio). Like Twilio
 * Proxy's number pools, a number carries many groups, but each member has each of their groups on
 * a number that carries no other group of theirs: the pair (member's phone, number) names one
 * group, so a member's text reaches the group they meant and no other.
 */
@Injectable()
export class GroupNumberPool {
  readonly numbers: readonly string[];

  constructor(@Inject(SERVICE_CONFIG) config: SmsConfig) {
    const twilio = smsProviderOf(config) === 'twilio';
    this.numbers = config.SMS_GROUP_NUMBERS.length ? config.SMS_GROUP_NUMBERS : twilio ? [] : config.SMS_DEV_GROUP_NUMBERS;
  }

  has(phone: string): boolean {
    return this.numbers.includes(phone);
  }

  /** The first number of the pool that carries none of these (a member's numbers in use), or null when the pool is exhausted for them. */
  freeNumber(inUse: readonly string[], prefer?: string): string | null {
    if (prefer && this.has(prefer) && !inUse.includes(prefer)) return prefer;
    return this.numbers.find((n) => !inUse.includes(n)) ?? null;
  }
}
