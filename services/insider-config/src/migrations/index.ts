import type { MigrationInterface } from 'typeorm';
import { CreateInsiderStatus1763800000100 } from './1763800000100-create-insider-status';
import { CreateVoiceConfig1763800000200 } from './1763800000200-create-voice-config';

/** The insider-config service's migrations, oldest first. */
export const insiderConfigMigrations: (new () => MigrationInterface)[] = [CreateInsiderStatus1763800000100, CreateVoiceConfig1763800000200];
