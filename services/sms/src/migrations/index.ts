import type { MigrationInterface } from 'typeorm';
import { CreateOutboundMessage1763900000000 } from './1763900000000-create-outbound-message';
import { OutboundMessageUser1765400000000 } from './1765400000000-outbound-message-user';
import { SmsChannel1766000000000 } from './1766000000000-sms-channel';
import { SmsTrust1766200000000 } from './1766200000000-sms-trust';

/** The sms service's migrations, oldest first. */
export const smsMigrations: (new () => MigrationInterface)[] = [
  CreateOutboundMessage1763900000000,
  OutboundMessageUser1765400000000,
  SmsChannel1766000000000,
  SmsTrust1766200000000,
];
