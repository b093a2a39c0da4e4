import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import type { McpServer } from '@app/contracts/chat';
import { AppLogger, DomainError, RUNTIME_ENV, SERVICE_CONFIG, type RuntimeEnv } from '@app/platform';
import type { ChatConfig } from '../config';
import { ownerOf } from '../conversations/conversations.service';
import { OutboundRefused } from '../tools/outbound/guarded-fetch';
import { OutboundHttp } from '../tools/outbound/outbound-http';
import { callMcpTool, listMcpTools, McpServerError, withMcpServer, type McpCallOutcome, type McpToolInfo } from './mcp-client';
import { McpServersRepository, type McpServerRecord, type McpServerStore } from './mcp-servers.repository';
import { modelToolName } from './mcp.tool';
import { TokenSeal, toolsKey } from './token-seal';

export const MCP_SERVER_NOT_FOUND = 'No such MCP server.';
export const MCP_NAME_TAKEN = 'You have an MCP server of that name already.';

export type McpConfig = Pick<ChatConfig, 'MCP_TIMEOUT_MS' | 'MCP_MAX_BYTES' | 'MCP_MAX_SERVERS' | 'TOOLS_ENCRYPTION_KEY'>;

/**
 * Users' own MCP servers: added (reached and listed through the outbound guard first), listed,
 * renamed, their tools switched on or off, listed again, removed; and their tools called for a
 * reply. Tokens are sealed at rest (TokenSeal) and never answered. Someone else's server is "not found".
 */
@Injectable()
export class McpServersService {
  private readonly seal: TokenSeal | null;

  constructor(
    @Inject(McpServersRepository) private readonly repo: McpServerStore,
    @Inject(OutboundHttp) private readonly outbound: Pick<OutboundHttp, 'check' | 'fetchLike'>,
    @Inject(AppLogger) private readonly logger: Pick<AppLogger, 'warn'>,
    @Inject(SERVICE_CONFIG) private readonly config: McpConfig,
    @Inject(RUNTIME_ENV) runtime: Pick<RuntimeEnv, 'NODE_ENV' | 'DATA_DIR'>,
  ) {
    const key = toolsKey(config, runtime);
    this.seal = key ? new TokenSeal(key) : null;
  }

  async list(caller: Caller): Promise<McpServer[]> {
    return (await this.repo.list(ownerOf(caller))).map(toView);
  }

  async add(caller: Caller, input: { name: string; url: string; access_token?: string }): Promise<McpServer> {
    const userId = ownerOf(caller);
    if ((await this.repo.count(userId)) >= this.config.MCP_MAX_SERVERS)
      throw DomainError.conflict(`You have ${this.config.MCP_MAX_SERVERS} MCP servers already: remove one first.`);
    const id = randomUUID();
    const url = await this.checkedUrl(input.url);
    const tools = await this.listTools(url, input.access_token ?? null);
    const stored = await this.repo.insert({
      id,
      userId,
      name: input.name.trim(),
      url,
      tokenSealed: input.access_token ? this.sealed(input.access_token, id) : null,
      tools,
      listedAt: new Date(),
    });
    if (!stored) throw DomainError.conflict(MCP_NAME_TAKEN);
    return toView(stored);
  }

  async update(
    caller: Caller,
    input: { server_id: string; name?: string; access_token?: string | null; tools?: Record<string, boolean> },
  ): Promise<McpServer> {
    const userId = ownerOf(caller);
    const server = await this.owned(userId, input.server_id);
    let disabledTools: string[] | undefined;
    if (input.tools) {
      const known = new Set(server.tools.map((t) => t.name));
      const off = new Set(server.disabledTools);
      for (const [name, on] of Object.entries(input.tools)) {
        if (!known.has(name)) throw DomainError.badRequest(`The server has no tool named "${name}".`);
        if (on) off.delete(name);
        else off.add(name);
      }
      disabledTools = [...off];
    }
    const tokenSealed =
      input.access_token === undefined ? undefined : input.access_token === null ? null : this.sealed(input.access_token, server.id);
    try {
      const updated = await this.repo.update(userId, server.id, { name: input.name?.trim(), tokenSealed, disabledTools });
      if (!updated) throw DomainError.notFound(MCP_SERVER_NOT_FOUND);
      return toView(updated);
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw DomainError.conflict(MCP_NAME_TAKEN);
      throw error;
    }
  }

  async refresh(caller: Caller, serverId: string): Promise<McpServer> {
    const userId = ownerOf(caller);
    const server = await this.owned(userId, serverId);
    const tools = await this.listTools(server.url, this.tokenOf(server));
    const updated = await this.repo.update(userId, server.id, { tools, listedAt: new Date() });
    if (!updated) throw DomainError.notFound(MCP_SERVER_NOT_FOUND);
    return toView(updated);
  }

  async remove(caller: Caller, serverId: string): Promise<{ removed: true }> {
    if (!(await this.repo.remove(ownerOf(caller), serverId))) throw DomainError.notFound(MCP_SERVER_NOT_FOUND);
    return { removed: true };
  }

  /** The caller's servers with the tools they switched on (read for every reply). */
  async enabledTools(userId: string): Promise<{ server: McpServerRecord; tool: McpToolInfo }[]> {
    const servers = await this.repo.list(userId);
    return servers.flatMap((server) =>
      server.tools.filter((tool) => !server.disabledTools.includes(tool.name)).map((tool) => ({ server, tool })),
    );
  }

  /** Calls one tool of a server (a reply's tool call); McpServerError when the server fails to answer. */
  async call(server: McpServerRecord, tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<McpCallOutcome> {
    try {
      return await withMcpServer(
        { url: server.url, token: this.tokenOf(server) },
        this.outbound.fetchLike(this.config.MCP_MAX_BYTES),
        { signal, timeoutMs: this.config.MCP_TIMEOUT_MS },
        (client) => callMcpTool(client, tool, args, { signal, timeoutMs: this.config.MCP_TIMEOUT_MS }),
      );
    } catch (error) {
      if (signal.aborted) throw error;
      throw new McpServerError(reasonOf(error), { cause: error });
    }
  }

  private async checkedUrl(raw: string): Promise<string> {
    try {
      return (await this.outbound.check(raw)).url.toString();
    } catch (error) {
      if (error instanceof OutboundRefused) throw DomainError.badRequest(`That server cannot be used: ${error.reason}`);
      throw error;
    }
  }

  private async listTools(url: string, token: string | null): Promise<McpToolInfo[]> {
    const signal = AbortSignal.timeout(this.config.MCP_TIMEOUT_MS);
    try {
      return await withMcpServer(
        { url, token },
        this.outbound.fetchLike(this.config.MCP_MAX_BYTES),
        { signal, timeoutMs: this.config.MCP_TIMEOUT_MS },
        (client) => listMcpTools(client, { signal, timeoutMs: this.config.MCP_TIMEOUT_MS }),
      );
    } catch (error) {
      this.logger.warn({ msg: 'An MCP server could not be listed', error: reasonOf(error) }, 'McpServersService');
      throw DomainError.badRequest(`The server's tools could not be listed: ${reasonOf(error)}`);
    }
  }

  private sealed(token: string, rowId: string): string {
    if (!this.seal) throw DomainError.unavailable('Access tokens cannot be kept: the operator has not set TOOLS_ENCRYPTION_KEY.');
    return this.seal.seal(token, rowId);
  }

  private tokenOf(server: McpServerRecord): string | null {
    if (!server.tokenSealed) return null;
    if (!this.seal) throw new McpServerError('The access token cannot be read: TOOLS_ENCRYPTION_KEY is not set.');
    return this.seal.open(server.tokenSealed, server.id);
  }

  private async owned(userId: string, id: string): Promise<McpServerRecord> {
    const server = await this.repo.find(userId, id);
    if (!server) throw DomainError.notFound(MCP_SERVER_NOT_FOUND);
    return server;
  }
}

/** A failure in words (the SDK's and the guard's messages are about the exchange, never our secrets). */
export function reasonOf(error: unknown): string {
  if (error instanceof OutboundRefused) return error.reason;
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/Bearer\s+\S+/gi, 'Bearer …').slice(0, 300) || 'it did not answer';
}

export function toView(server: McpServerRecord): McpServer {
  return {
    server_id: server.id,
    name: server.name,
    url: server.url,
    auth: server.tokenSealed ? 'token' : 'none',
    tools: server.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      enabled: !server.disabledTools.includes(tool.name),
      model_name: modelToolName(server.name, tool.name),
    })),
    listed_at: server.listedAt?.toISOString() ?? null,
    created_at: server.createdAt.toISOString(),
  };
}
