import type { MigrationInterface } from 'typeorm';
import { CreateOutboundMessage1763900000000 } from './1763900000000-create-outbound-message';

/** The sms service's migrations, oldest first. */
export const smsMigrations: (new () => MigrationInterface)[] = [CreateOutboundMessage1763900000000];
