import type { MigrationInterface } from 'typeorm';

/** The insider-config service's migrations, oldest first. */
export const insiderConfigMigrations: (new () => MigrationInterface)[] = [];
