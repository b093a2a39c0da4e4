import type { MigrationInterface } from 'typeorm';
import { CreateChat1763900000100 } from './1763900000100-create-chat';

/** The chat service's migrations, oldest first. */
export const chatMigrations: (new () => MigrationInterface)[] = [CreateChat1763900000100];
