import type { MigrationInterface } from 'typeorm';

/** The files service's migrations, oldest first. */
export const filesMigrations: (new () => MigrationInterface)[] = [];
