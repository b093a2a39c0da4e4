import type { ServiceDefinition } from '@app/platform';
import { smsEnvSchema } from './config';
import { OutboundMessageEntity } from './messages/outbound-message.entity';
import { smsMigrations } from './migrations';
import { SmsModule } from './sms.module';

export { smsEnvSchema, type SmsConfig } from './config';

export const smsService: ServiceDefinition = {
  name: 'sms',
  module: SmsModule,
  config: smsEnvSchema,
  entities: [OutboundMessageEntity],
  migrations: smsMigrations,
  // No `userData`: messages are keyed by phone number, not by user id, so the platform's export,
  // purge and guest merge (which go by a user column) cannot find them. To include them, the
  // account's phone number has to reach this service first (a later change).
};
