import { Inject, Injectable } from '@nestjs/common';
import { AppLogger, platformMetrics, SERVICE_CONFIG } from '@app/platform';
import type { SmsConfig } from '../config';
import { OutboundRepository, type CeilingVerdict } from './store/outbound.repository';

/**
 * The operator's ceiling on every text the service sends, all replicas together (one count per
 * UTC minute and per UTC day in PostgreSQL): SMS_TEXTS_PER_MINUTE and SMS_TEXTS_PER_DAY. Every
 * send asks it first, the outbound queue's and the sign-in codes' alike. A text over the minute's
 * waits (the queue retries it; a sign-in code is refused with 503 and Retry-After); over the day's
 * it is held. Each is counted by assistant_sms_texts_held_total{reason}; the day's is logged as an
 * error at most once a minute (the operator's alert).
 */
@Injectable()
export class SendCeiling {
  private heldLoggedAt = -Infinity;

  constructor(
    @Inject(OutboundRepository) private readonly outbound: Pick<OutboundRepository, 'reserveSend'>,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<SmsConfig, 'SMS_TEXTS_PER_MINUTE' | 'SMS_TEXTS_PER_DAY'>,
    @Inject(AppLogger) private readonly logger: Pick<AppLogger, 'error'>,
  ) {}

  /** Counts one send if it fits; says whether it may go, must wait, or is held. */
  async reserve(): Promise<CeilingVerdict> {
    const verdict = await this.outbound.reserveSend(this.config.SMS_TEXTS_PER_MINUTE, this.config.SMS_TEXTS_PER_DAY);
    if (verdict === 'send') return verdict;
    platformMetrics.recordSmsHeld(verdict === 'wait' ? 'minute_ceiling' : 'day_ceiling');
    if (verdict === 'hold' && Date.now() - this.heldLoggedAt >= 60_000) {
      this.heldLoggedAt = Date.now();
      this.logger.error(
        {
          msg: "The day's ceiling of texts (SMS_TEXTS_PER_DAY) is reached: texts are held, not sent",
          limit: this.config.SMS_TEXTS_PER_DAY,
        },
        'SendCeiling',
      );
    }
    return verdict;
  }
}
