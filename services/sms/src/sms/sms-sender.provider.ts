import type { Provider } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { AppLogger, SERVICE_CONFIG } from '@app/platform';
import { incompleteTwilioCredentials, smsProviderOf, type SmsConfig } from '../config';
import { ConsoleSender } from './senders/console.sender';
import { SMS_SENDER, type SmsSender } from './senders/sms-sender';
import { TwilioSender } from './senders/twilio.sender';

/** The sender the configuration selects; only that one is built. */
export const smsSenderProvider: Provider = {
  provide: SMS_SENDER,
  inject: [SERVICE_CONFIG, AppLogger, ModuleRef],
  useFactory: async (config: SmsConfig, logger: AppLogger, moduleRef: ModuleRef): Promise<SmsSender> => {
    const incomplete = incompleteTwilioCredentials(config);
    if (incomplete && !config.SMS_PROVIDER) {
      logger.warn(
        `${incomplete.set.join(', ')} set but ${incomplete.missing.join(', ')} missing: texts go to the console, not Twilio`,
        'SmsSender',
      );
    }
    if (smsProviderOf(config) === 'twilio') {
      logger.log(`Texts are sent through Twilio from ${config.TWILIO_FROM_NUMBER}`, 'SmsSender');
      return moduleRef.create(TwilioSender);
    }
    logger.log('Texts go to the console and the development inbox (Twilio is not configured)', 'SmsSender');
    return moduleRef.create(ConsoleSender);
  },
};
