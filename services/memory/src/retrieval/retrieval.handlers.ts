import { Controller } from '@nestjs/common';
import { MEMORY_RPC } from '@app/contracts/memory';
import { RpcHandler, type RpcInput } from '@app/platform';

/**
 * Personalisation before each reply. The memory store itself (extraction, editing, ranking) is the
 * long-term memory capability; until it lands, nobody has memories, and the honest answer is none.
 */
@Controller()
export class RetrievalHandlers {
  @RpcHandler(MEMORY_RPC.relevant)
  relevant(_input: RpcInput<typeof MEMORY_RPC.relevant>) {
    return { memories: [] };
  }
}
