import { Controller } from '@nestjs/common';
import { MEMORY_RPC } from '@app/contracts/memory';
import { RpcHandler, type RpcInput } from '@app/platform';
import { MemoriesService } from './memories.service';

@Controller()
export class MemoriesHandlers {
  constructor(private readonly memories: MemoriesService) {}

  @RpcHandler(MEMORY_RPC.list)
  list({ caller, data }: RpcInput<typeof MEMORY_RPC.list>) {
    return this.memories.list(caller, data);
  }

  @RpcHandler(MEMORY_RPC.update)
  update({ caller, data: { user_memory_id, ...change } }: RpcInput<typeof MEMORY_RPC.update>) {
    return this.memories.update(caller, user_memory_id, change);
  }

  @RpcHandler(MEMORY_RPC.remove)
  remove({ caller, data }: RpcInput<typeof MEMORY_RPC.remove>) {
    return this.memories.remove(caller, data.user_memory_id);
  }

  @RpcHandler(MEMORY_RPC.restore)
  restore({ caller, data }: RpcInput<typeof MEMORY_RPC.restore>) {
    return this.memories.restore(caller, data.user_memory_id);
  }
}
