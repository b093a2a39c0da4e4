import type { ServiceDefinition } from '@app/platform';
import { SmsModule } from './sms.module';
import { smsMigrations } from './migrations';

export const smsService: ServiceDefinition = {
  name: 'sms',
  module: SmsModule,
  entities: [],
  migrations: smsMigrations,
};
