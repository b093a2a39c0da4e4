import { Module } from '@nestjs/common';
import { USER_DATA_PURGE_HOOK } from '@app/platform';
import { SERVICE_CONFIG } from '@app/platform';
import { AssistantClient } from './channel/assistant.client';
import { ChannelHandlers } from './channel/channel.handlers';
import { GroupJoins } from './channel/groups/group-joins';
import { GroupsService } from './channel/groups/groups.service';
import { GroupNumberPool } from './channel/groups/number-pool';
import { RouteRepair } from './channel/groups/route-repair';
import { Allowance } from './channel/inbound/allowance';
import { GroupAnswer } from './channel/inbound/group.answer';
import { IdentifyStep } from './channel/inbound/identify.step';
import { InboundPipeline } from './channel/inbound/inbound-pipeline';
import { JoinAnswer } from './channel/inbound/join.answer';
import { KeywordAnswer } from './channel/inbound/keyword.answer';
import { MmsMedia } from './channel/inbound/mms-media';
import { ReplyAnswer } from './channel/inbound/reply.answer';
import { RouteStep } from './channel/inbound/route.step';
import { InboundService } from './channel/inbound.service';
import { DESTINATION_POLICY, OutboundQueue } from './channel/outbound-queue';
import { SendCeiling } from './channel/send-ceiling';
import { ReminderTexts } from './channel/reminder-texts';
import { ReminderTextsHandlers } from './channel/reminder-texts.handlers';
import { destinationPolicyOf, ServiceNumbers } from './channel/service-numbers';
import { WebhookSigning } from './channel/signing';
import { ChannelUnitOfWork } from './channel/store/channel-unit-of-work';
import { GroupsRepository } from './channel/store/groups.repository';
import { InboundRepository } from './channel/store/inbound.repository';
import { NumbersRepository } from './channel/store/numbers.repository';
import { OutboundRepository } from './channel/store/outbound.repository';
import { SettingsRepository } from './channel/store/settings.repository';
import type { SmsConfig } from './config';
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
  controllers: [MessagesHandlers, ChannelHandlers, ReminderTextsHandlers],
  providers: [
    // The channel's tables
    ChannelUnitOfWork,
    InboundRepository,
    OutboundRepository,
    NumbersRepository,
    GroupsRepository,
    SettingsRepository,
    // Its numbers and edges
    ServiceNumbers,
    GroupNumberPool,
    {
      provide: DESTINATION_POLICY,
      useFactory: (config: SmsConfig, numbers: ServiceNumbers) => destinationPolicyOf(config, numbers),
      inject: [SERVICE_CONFIG, ServiceNumbers],
    },
    WebhookSigning,
    AssistantClient,
    MmsMedia,
    SendCeiling,
    OutboundQueue,
    // Incoming texts: the scheduler and the pipeline's steps
    InboundService,
    InboundPipeline,
    IdentifyStep,
    RouteStep,
    KeywordAnswer,
    JoinAnswer,
    GroupAnswer,
    ReplyAnswer,
    Allowance,
    // Reminders by text (the chat service owns reminders)
    ReminderTexts,
    // Groups from the portal
    GroupsService,
    GroupJoins,
    RouteRepair,
    MessagesService,
    MessagesRepository,
    SmsUserData,
    smsSenderProvider,
    { provide: USER_DATA_PURGE_HOOK, useExisting: SmsUserData },
  ],
  exports: [USER_DATA_PURGE_HOOK],
})
export class SmsModule {}
