import type { MigrationInterface } from 'typeorm';

/** The memory service's migrations, oldest first. */
export const memoryMigrations: (new () => MigrationInterface)[] = [];
