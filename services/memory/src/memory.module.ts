import { RetrievalHandlers } from './retrieval/retrieval.handlers';
import { Module } from '@nestjs/common';

/**
 * The memory service. The platform adds its health handler (`memory.health.check`), its database
 * (schema `memory`), the RPC client and the event publisher around this module.
 */
@Module({
  imports: [],
  controllers: [RetrievalHandlers],
  providers: [],
})
export class MemoryModule {}
