import type { MigrationInterface } from 'typeorm';

/** The auth service's migrations, oldest first. */
export const authMigrations: (new () => MigrationInterface)[] = [];
