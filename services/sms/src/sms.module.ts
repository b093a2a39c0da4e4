import { Module } from '@nestjs/common';
import { USER_DATA_PURGE_HOOK } from '@app/platform';
import { AssistantClient } from './channel/assistant.client';
import { ChannelHandlers } from './channel/channel.handlers';
import { ChannelRepository } from './channel/channel.repository';
import { GroupsRepository } from './channel/groups.repository';
import { GroupsService } from './channel/groups.service';
import { InboundService } from './channel/inbound.service';
import { OutboundQueue } from './channel/outbound-queue';
import { WebhookSigning } from './channel/signing';
import { MessagesHandlers } from './messages/messages.handlers';
import { MessagesRepository } from './messages/messages.repository';
import { MessagesService } from './messages/messages.service';
import { SmsUserData } from './messages/sms-user-data';
import { smsSenderProvider } from './sms/sms-sender.provider';

/**
 * The sms service. The platform adds its health handler (`sms.health.check`), its database
 * (schema `sms`), the RPC client, the event publisher and the data rights (export, purge, merge of
 * `outbound_message` by user; SmsUserData finds the texts kept by number) around this module.
 */
@Module({
  controllers: [MessagesHandlers, ChannelHandlers],
  providers: [
    ChannelRepository,
    GroupsRepository,
    WebhookSigning,
    AssistantClient,
    GroupsService,
    InboundService,
    OutboundQueue,
    MessagesService,
    MessagesRepository,
    SmsUserData,
    smsSenderProvider,
    { provide: USER_DATA_PURGE_HOOK, useExisting: SmsUserData },
  ],
  exports: [USER_DATA_PURGE_HOOK],
})
export class SmsModule {}
