import { Module } from '@nestjs/common';
import { SERVICE_CONFIG } from '@app/platform';
import type { MemoryConfig } from './config';
import { ExtractionHandlers } from './extraction/extraction.handlers';
import { ExtractionService } from './extraction/extraction.service';
import { createExtractor } from './extraction/extractor.factory';
import { MEMORY_EXTRACTOR } from './extraction/memory-extractor';
import { MemoriesHandlers } from './memories/memories.handlers';
import { MemoriesRepository } from './memories/memories.repository';
import { MemoriesService } from './memories/memories.service';
import { RemovedMemorySweeper } from './memories/removed-memory.sweeper';
import { RetrievalHandlers } from './retrieval/retrieval.handlers';
import { RetrievalService } from './retrieval/retrieval.service';

/**
 * Long-term memory: extraction after each exchange, retrieval before each reply, and the user's
 * control over what is kept. The platform adds its health handler, its database (schema `memory`),
 * the data-rights handlers, the RPC client and the event publisher around this module.
 */
@Module({
  controllers: [RetrievalHandlers, MemoriesHandlers, ExtractionHandlers],
  providers: [
    MemoriesRepository,
    MemoriesService,
    RetrievalService,
    ExtractionService,
    RemovedMemorySweeper,
    { provide: MEMORY_EXTRACTOR, useFactory: (config: MemoryConfig) => createExtractor(config), inject: [SERVICE_CONFIG] },
  ],
})
export class MemoryModule {}
