import { Module } from '@nestjs/common';
import { MessagesHandlers } from './messages/messages.handlers';
import { MessagesRepository } from './messages/messages.repository';
import { MessagesService } from './messages/messages.service';
import { smsSenderProvider } from './sms/sms-sender.provider';

/**
 * The sms service. The platform adds its health handler (`sms.health.check`), its database
 * (schema `sms`), the RPC client and the event publisher around this module.
 */
@Module({
  controllers: [MessagesHandlers],
  providers: [MessagesService, MessagesRepository, smsSenderProvider],
})
export class SmsModule {}
