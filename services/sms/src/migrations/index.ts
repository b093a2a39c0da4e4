import type { MigrationInterface } from 'typeorm';

/** The sms service's migrations, oldest first. */
export const smsMigrations: (new () => MigrationInterface)[] = [];
