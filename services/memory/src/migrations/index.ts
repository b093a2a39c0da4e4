import type { MigrationInterface } from 'typeorm';
import { CreateUserMemory1764000000100 } from './1764000000100-create-user-memory';
import { IndexUserMemoryPerUser1764000000200 } from './1764000000200-index-user-memory-per-user';

/** The memory service's migrations, oldest first. */
export const memoryMigrations: (new () => MigrationInterface)[] = [CreateUserMemory1764000000100, IndexUserMemoryPerUser1764000000200];
