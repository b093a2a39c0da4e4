import { Controller } from '@nestjs/common';
import { MEMORY_RPC } from '@app/contracts/memory';
import { RpcHandler, type RpcInput } from '@app/platform';
import { RetrievalService } from './retrieval.service';

/** Personalization before each reply (the chat service asks with the user's identity). */
@Controller()
export class RetrievalHandlers {
  constructor(private readonly retrieval: RetrievalService) {}

  @RpcHandler(MEMORY_RPC.relevant)
  relevant({ caller, data }: RpcInput<typeof MEMORY_RPC.relevant>) {
    return this.retrieval.relevant(caller, data.query, data.limit);
  }
}
