import type { ServiceDefinition } from '@app/platform';
import { memoryEnvSchema } from './config';
import { UserMemoryEntity } from './memories/user-memory.entity';
import { MemoryModule } from './memory.module';
import { memoryMigrations } from './migrations';

export const memoryService: ServiceDefinition = {
  name: 'memory',
  module: MemoryModule,
  config: memoryEnvSchema,
  entities: [UserMemoryEntity],
  migrations: memoryMigrations,
  // A guest's memories move to the account they sign in to (several memories per user: nothing collides).
  userData: { tables: [{ table: 'user_memory', userColumn: 'user_id' }] },
};

// For the tests and measurements that drive extraction directly (a redelivered event, timings).
export { ExtractionService } from './extraction/extraction.service';
export { ModelExtractor, parseExtraction } from './extraction/model.extractor';
export { RuleBasedExtractor, extractByRules } from './extraction/rule-based.extractor';
export type { Exchange, ExtractedMemory, KnownMemory, MemoryExtractor } from './extraction/memory-extractor';
