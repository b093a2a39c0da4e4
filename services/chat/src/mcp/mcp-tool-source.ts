import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import type { ChatTool } from '../tools/chat-tool';
import { compiledSchema, McpTool } from './mcp.tool';
import { McpServersService } from './mcp-servers.service';

/** The tools of the caller's MCP servers that are switched on, as tools of the loop (a tool whose schema is unusable is left out). */
@Injectable()
export class McpToolSource {
  constructor(@Inject(McpServersService) private readonly servers: Pick<McpServersService, 'enabledTools' | 'call'>) {}

  async toolsFor(caller: Caller): Promise<ChatTool[]> {
    if (!caller.user_id) return [];
    const tools: ChatTool[] = [];
    for (const { server, tool } of await this.servers.enabledTools(caller.user_id)) {
      const schema = compiledSchema(tool.inputSchema);
      if (schema)
        tools.push(new McpTool(server, tool, schema, (s, name, args, signal) => this.servers.call(s, name, args, signal)) as ChatTool);
    }
    return tools;
  }
}
