import { Inject, Injectable } from '@nestjs/common';
import { AppLogger, SERVICE_CONFIG } from '@app/platform';
import type { ChatConfig } from '../config';
import { OutboundHttp } from '../tools/outbound/outbound-http';
import { callServerTool, listServerTools, McpServerError, reasonOf, type McpToolInfo } from './mcp-client';
import type { McpServerRecord } from './mcp-servers.repository';

/** How long a listing is trusted, and how soon a server that failed to list is tried again. */
const LISTED_FOR_MS = 5 * 60_000;
const RETRY_AFTER_MS = 30_000;

type OperatorServer = ChatConfig['MCP_SERVERS'][number];

/**
 * The MCP servers an operator offers to everyone (MCP_SERVERS): listed on first use and every 5
 * minutes (a server that fails is left out and tried again after 30 s), called like a user's
 * through the outbound guard, with the operator's token from the configuration.
 */
@Injectable()
export class OperatorMcpServers {
  private readonly listings = new Map<string, { at: number; tools: McpToolInfo[]; failed: boolean }>();
  private readonly listing = new Map<string, Promise<void>>();

  constructor(
    @Inject(OutboundHttp) private readonly outbound: Pick<OutboundHttp, 'fetchLike'>,
    @Inject(AppLogger) private readonly logger: Pick<AppLogger, 'warn'>,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<ChatConfig, 'MCP_SERVERS' | 'MCP_TIMEOUT_MS' | 'MCP_MAX_BYTES'>,
  ) {}

  /** Every operator server's tools, as records the loop's McpTool takes (ids `operator:<name>`). */
  async tools(): Promise<{ server: McpServerRecord; tool: McpToolInfo }[]> {
    await Promise.all(this.config.MCP_SERVERS.map((server) => this.fresh(server)));
    return this.config.MCP_SERVERS.flatMap((server) =>
      (this.listings.get(server.name)?.tools ?? []).map((tool) => ({ server: recordOf(server), tool })),
    );
  }

  async call(serverName: string, tool: string, args: Record<string, unknown>, signal: AbortSignal) {
    const server = this.config.MCP_SERVERS.find((s) => s.name === serverName);
    if (!server) throw new McpServerError('That server is no longer configured.');
    return callServerTool(
      this.target(server),
      this.outbound.fetchLike(this.config.MCP_MAX_BYTES),
      { tool, args },
      {
        signal,
        timeoutMs: this.config.MCP_TIMEOUT_MS,
      },
    );
  }

  private async fresh(server: OperatorServer): Promise<void> {
    const known = this.listings.get(server.name);
    if (known && Date.now() - known.at < (known.failed ? RETRY_AFTER_MS : LISTED_FOR_MS)) return;
    let pending = this.listing.get(server.name);
    if (!pending) {
      pending = this.list(server).finally(() => this.listing.delete(server.name));
      this.listing.set(server.name, pending);
    }
    await pending;
  }

  private async list(server: OperatorServer): Promise<void> {
    try {
      const tools = await listServerTools(
        this.target(server),
        this.outbound.fetchLike(this.config.MCP_MAX_BYTES),
        this.config.MCP_TIMEOUT_MS,
      );
      this.listings.set(server.name, { at: Date.now(), tools, failed: false });
    } catch (error) {
      this.logger.warn(
        { msg: "An operator's MCP server could not be listed", server: server.name, error: reasonOf(error) },
        'OperatorMcpServers',
      );
      this.listings.set(server.name, { at: Date.now(), tools: this.listings.get(server.name)?.tools ?? [], failed: true });
    }
  }

  private target(server: OperatorServer) {
    return { url: server.url, token: server.token ?? null };
  }
}

function recordOf(server: OperatorServer): McpServerRecord {
  return {
    id: `operator:${server.name}`,
    userId: '',
    name: server.name,
    url: server.url,
    tokenSealed: null,
    auth: server.token ? 'token' : 'none',
    oauthSealed: null,
    tools: [],
    disabledTools: [],
    listedAt: null,
    createdAt: new Date(0),
  };
}
