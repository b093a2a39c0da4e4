import { Controller } from '@nestjs/common';
import { MCP_RPC } from '@app/contracts/chat';
import { RpcHandler, type RpcInput } from '@app/platform';
import { McpServersService } from './mcp-servers.service';

/** The MCP servers' calls (settings): each a one-line delegation. */
@Controller()
export class McpHandlers {
  constructor(private readonly servers: McpServersService) {}

  @RpcHandler(MCP_RPC.list)
  list({ caller }: RpcInput<typeof MCP_RPC.list>) {
    return this.servers.list(caller);
  }

  @RpcHandler(MCP_RPC.add)
  add({ caller, data }: RpcInput<typeof MCP_RPC.add>) {
    return this.servers.add(caller, data);
  }

  @RpcHandler(MCP_RPC.update)
  update({ caller, data }: RpcInput<typeof MCP_RPC.update>) {
    return this.servers.update(caller, data);
  }

  @RpcHandler(MCP_RPC.finishOAuth)
  finishOAuth({ caller, data }: RpcInput<typeof MCP_RPC.finishOAuth>) {
    return this.servers.finishOAuth(caller, data);
  }

  @RpcHandler(MCP_RPC.refresh)
  refresh({ caller, data }: RpcInput<typeof MCP_RPC.refresh>) {
    return this.servers.refresh(caller, data.server_id);
  }

  @RpcHandler(MCP_RPC.remove)
  remove({ caller, data }: RpcInput<typeof MCP_RPC.remove>) {
    return this.servers.remove(caller, data.server_id);
  }
}
