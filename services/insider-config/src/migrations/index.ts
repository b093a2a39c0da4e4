import type { MigrationInterface } from 'typeorm';
import { CreateInsiderStatus1763800000100 } from './1763800000100-create-insider-status';

/** The insider-config service's migrations, oldest first. */
export const insiderConfigMigrations: (new () => MigrationInterface)[] = [CreateInsiderStatus1763800000100];
