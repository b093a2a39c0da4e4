import type { MigrationInterface } from 'typeorm';
import { CreateUserMemory1764000000100 } from './1764000000100-create-user-memory';
import { IndexUserMemoryPerUser1764000000200 } from './1764000000200-index-user-memory-per-user';
import { IndexUserMemorySearchPerUser1764000000300 } from './1764000000300-index-user-memory-search-per-user';

/** The memory service's migrations, oldest first. */
export const memoryMigrations: (new () => MigrationInterface)[] = [
  CreateUserMemory1764000000100,
  IndexUserMemoryPerUser1764000000200,
  IndexUserMemorySearchPerUser1764000000300,
];
