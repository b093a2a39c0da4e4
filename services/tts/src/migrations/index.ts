import type { MigrationInterface } from 'typeorm';

/** The tts service's migrations, oldest first. */
export const ttsMigrations: (new () => MigrationInterface)[] = [];
