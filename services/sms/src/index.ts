import type { ServiceDefinition } from '@app/platform';
import { smsEnvSchema } from './config';
import { OutboundMessageEntity } from './messages/outbound-message.entity';
import { smsMigrations } from './migrations';
import { SmsModule } from './sms.module';

export { smsEnvSchema, type SmsConfig } from './config';
/** For tests and operators: the retention sweep (`deleteExpiredCodeTexts`) on a running service. */
export { MessagesService } from './messages/messages.service';
/** For tests and the benchmark: wait until every incoming text is answered. */
export { InboundService } from './channel/inbound.service';

export const smsService: ServiceDefinition = {
  name: 'sms',
  module: SmsModule,
  config: smsEnvSchema,
  entities: [OutboundMessageEntity],
  migrations: smsMigrations,
  userData: {
    // Texts to the account's number: those sent before the account existed (sign-in codes) are
    // linked on export and purged by number (SmsUserData), the rest carry the user from the start.
    // The text channel: the user's texts in and out (with their status callbacks), their number's
    // opt-out, threads, monthly usage, notices, group memberships, what they said in groups and
    // the groups they created.
    tables: [
      { table: 'outbound_message', userColumn: 'user_id' },
      { table: 'inbound_message', userColumn: 'user_id' },
      { table: 'sms_status_callback', userColumn: 'user_id' },
      { table: 'sms_number', userColumn: 'user_id' },
      { table: 'sms_thread', userColumn: 'user_id' },
      { table: 'sms_usage', userColumn: 'user_id' },
      { table: 'sms_notice', userColumn: 'user_id' },
      { table: 'sms_group_member', userColumn: 'user_id' },
      { table: 'sms_group_message', userColumn: 'sender_user_id' },
      { table: 'sms_keyword_reply', userColumn: 'user_id' },
      // The groups the user created (name, channel, number) are theirs to export; on deletion
      // SmsUserData removes a group nobody is left in and leaves the others' groups to them.
      { table: 'sms_group', userColumn: 'owner_user_id', onDelete: 'hook' },
    ],
  },
};
