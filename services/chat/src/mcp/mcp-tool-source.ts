import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import type { ChatTool } from '../tools/chat-tool';
import { compiledSchema, McpTool } from './mcp.tool';
import { McpServersService } from './mcp-servers.service';
import { OperatorMcpServers } from './operator-mcp-servers';

/** The tools of the operator's MCP servers and of the caller's that are switched on, as tools of the loop (a tool whose schema is unusable is left out). */
@Injectable()
export class McpToolSource {
  constructor(
    @Inject(McpServersService) private readonly servers: Pick<McpServersService, 'enabledTools' | 'call'>,
    @Inject(OperatorMcpServers) private readonly operator: Pick<OperatorMcpServers, 'tools' | 'call'>,
  ) {}

  /** The operator's servers' tools first (offered to everyone), then the caller's own. */
  async toolsFor(caller: Caller): Promise<ChatTool[]> {
    const tools: ChatTool[] = [];
    for (const { server, tool } of await this.operator.tools()) {
      const schema = compiledSchema(tool.inputSchema);
      if (schema)
        tools.push(
          new McpTool(server, tool, schema, (s, name, args, signal) => this.operator.call(s.name, name, args, signal)) as ChatTool,
        );
    }
    if (!caller.user_id) return tools;
    for (const { server, tool } of await this.servers.enabledTools(caller.user_id)) {
      const schema = compiledSchema(tool.inputSchema);
      if (schema)
        tools.push(new McpTool(server, tool, schema, (s, name, args, signal) => this.servers.call(s, name, args, signal)) as ChatTool);
    }
    return tools;
  }
}
