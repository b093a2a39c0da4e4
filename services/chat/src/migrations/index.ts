import type { MigrationInterface } from 'typeorm';

/** The chat service's migrations, oldest first. */
export const chatMigrations: (new () => MigrationInterface)[] = [];
