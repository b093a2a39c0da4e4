import type { ServiceDefinition } from '@app/platform';
import { MemoryModule } from './memory.module';
import { memoryMigrations } from './migrations';

export const memoryService: ServiceDefinition = {
  name: 'memory',
  module: MemoryModule,
  entities: [],
  migrations: memoryMigrations,
};
