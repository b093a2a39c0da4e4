import { Inject, Injectable } from '@nestjs/common';
import { AppLogger, SERVICE_CONFIG } from '@app/platform';
import type { SmsConfig } from '../../config';
import { maskCodes } from '../mask-codes';
import type { OutgoingSms, SmsSendResult, SmsSender } from './sms-sender';

/**
 * The development sink: nothing leaves the machine. Each text is one log line (so a login code
 * can be read off the terminal) and stays in the development inbox. In production a code is never
 * written in full: the line shows `12••••`.
 */
@Injectable()
export class ConsoleSender implements SmsSender {
  readonly provider = 'console';
  private readonly production: boolean;

  constructor(
    private readonly logger: AppLogger,
    @Inject(SERVICE_CONFIG) config: Pick<SmsConfig, 'NODE_ENV'>,
  ) {
    this.production = config.NODE_ENV === 'production';
  }

  async send({ to, body, purpose, from, mediaUrls }: OutgoingSms): Promise<SmsSendResult> {
    const shown = this.production ? maskCodes(body) : body;
    this.logger.info(`SMS to ${to} : ${shown.replace(/\r?\n/g, '\\n')}`, { purpose, from, media: mediaUrls?.length ?? 0 }, 'ConsoleSender');
    return { status: 'delivered', providerMessageId: null };
  }
}
