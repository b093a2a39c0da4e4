import { Inject, Injectable } from '@nestjs/common';
import { SERVICE_CONFIG } from '@app/platform';
import { smsProviderOf, type SmsConfig } from '../config';
import type { DestinationPolicy } from './destinations';
import { GroupNumberPool } from './groups/number-pool';

/** The service's own numbers: the assistant's (one-to-one), and the group pool's. */
@Injectable()
export class ServiceNumbers {
  /** The assistant's own number: Twilio's, or the development number. */
  readonly assistant: string;
  readonly provider: string;

  constructor(
    @Inject(SERVICE_CONFIG) config: SmsConfig,
    private readonly pool: GroupNumberPool,
  ) {
    this.provider = smsProviderOf(config);
    this.assistant = this.provider === 'twilio' && config.TWILIO_FROM_NUMBER ? config.TWILIO_FROM_NUMBER : config.SMS_DEV_NUMBER;
  }

  /** Whether a text to this number is the service's to answer. */
  isOurs(phone: string): boolean {
    return phone === this.assistant || this.pool.has(phone);
  }

  get all(): string[] {
    return [this.assistant, ...this.pool.numbers];
  }
}

/** The numbers never texted: the service's own, and the regions it is not offered in. */
export function destinationPolicyOf(config: SmsConfig, numbers: ServiceNumbers): DestinationPolicy {
  return { ownNumbers: numbers.all, blockedCountries: config.BLOCKED_COUNTRIES };
}
