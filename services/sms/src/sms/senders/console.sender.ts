import { Injectable } from '@nestjs/common';
import { AppLogger } from '@app/platform';
import type { OutgoingSms, SmsSendResult, SmsSender } from './sms-sender';

/**
 * The development sink: nothing leaves the machine. Each text is one log line (so a login code
 * can be read off the terminal) and stays in the development inbox.
 */
@Injectable()
export class ConsoleSender implements SmsSender {
  readonly provider = 'console';

  constructor(private readonly logger: AppLogger) {}

  async send({ to, body, purpose }: OutgoingSms): Promise<SmsSendResult> {
    this.logger.info(`SMS to ${to} : ${body.replace(/\r?\n/g, '\\n')}`, { purpose }, 'ConsoleSender');
    return { status: 'delivered', providerMessageId: null };
  }
}
