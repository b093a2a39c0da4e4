import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import type { McpServer } from '@app/contracts/chat';
import { AppLogger, DomainError, publicUrlFor, RUNTIME_ENV, SERVICE_CONFIG, type RuntimeEnv, type PublicOf } from '@app/platform';
import type { ChatConfig } from '../config';
import { ownerOf } from '../conversations/conversations.service';
import { OutboundRefused } from '../tools/outbound/guarded-fetch';
import { OutboundHttp } from '../tools/outbound/outbound-http';
import {
  callServerTool,
  listServerTools,
  McpServerError,
  reasonOf,
  type McpCallOutcome,
  type McpTarget,
  type McpToolInfo,
} from './mcp-client';
import { auth as oauth } from '@modelcontextprotocol/sdk/client/auth.js';
import { UserFactsCache } from '../replies/user-facts.cache';
import { McpServersRepository, type McpServerRecord } from './mcp-servers.repository';
import { McpOAuthProvider, type McpOAuthState } from './mcp-oauth.provider';
import { modelToolName } from './mcp.tool';
import { TokenSeal, toolsKey } from './token-seal';

export const MCP_SERVER_NOT_FOUND = 'No such MCP server.';
export const MCP_NAME_TAKEN = 'You have an MCP server of that name already.';

export type McpConfig = Pick<ChatConfig, 'MCP_TIMEOUT_MS' | 'MCP_MAX_BYTES' | 'MCP_MAX_SERVERS' | 'TOOLS_ENCRYPTION_KEY' | 'PUBLIC_URL'>;
export const OAUTH_NOT_UNDER_WAY = 'No authorisation of this server is under way (or it was for another one). Add it again.';

/**
 * Users' own MCP servers: added (reached and listed through the outbound guard first), listed,
 * renamed, their tools switched on or off, listed again, removed; and their tools called for a
 * reply. Tokens are sealed at rest (TokenSeal) and never answered. Someone else's server is "not found".
 */
@Injectable()
export class McpServersService {
  private readonly seal: TokenSeal | null;

  constructor(
    @Inject(McpServersRepository) private readonly repo: PublicOf<McpServersRepository>,
    @Inject(OutboundHttp) private readonly outbound: Pick<OutboundHttp, 'check' | 'fetchLike'>,
    @Inject(AppLogger) private readonly logger: Pick<AppLogger, 'warn'>,
    @Inject(SERVICE_CONFIG) private readonly config: McpConfig,
    @Inject(RUNTIME_ENV) runtime: Pick<RuntimeEnv, 'NODE_ENV' | 'DATA_DIR'>,
    @Inject(UserFactsCache) private readonly facts: Pick<UserFactsCache, 'get' | 'lookup' | 'changed'>,
  ) {
    const key = toolsKey(config, runtime);
    this.seal = key ? new TokenSeal(key) : null;
  }

  async list(caller: Caller): Promise<McpServer[]> {
    return (await this.repo.list(ownerOf(caller))).map((server) => toView(server));
  }

  async add(caller: Caller, input: { name: string; url: string; access_token?: string; oauth?: boolean }): Promise<McpServer> {
    const userId = ownerOf(caller);
    if ((await this.repo.count(userId)) >= this.config.MCP_MAX_SERVERS)
      throw DomainError.conflict(`You have ${this.config.MCP_MAX_SERVERS} MCP servers already: remove one first.`);
    if (input.oauth && input.access_token) throw DomainError.badRequest('Give an access token or ask for OAuth, not both.');
    const id = randomUUID();
    const url = await this.checkedUrl(input.url);
    if (input.oauth) return this.addWithOAuth(userId, id, input.name.trim(), url);
    const tools = await this.listTools({ url, token: input.access_token ?? null });
    const stored = await this.repo.insert({
      id,
      userId,
      name: input.name.trim(),
      url,
      tokenSealed: input.access_token ? this.sealed(input.access_token, id) : null,
      auth: input.access_token ? 'token' : 'none',
      oauthSealed: null,
      tools,
      listedAt: new Date(),
    });
    if (!stored) throw DomainError.conflict(MCP_NAME_TAKEN);
    this.facts.changed(userId);
    return toView(stored);
  }

  /**
   * OAuth 2.1 as the MCP authorisation specification describes it (through the SDK): the server's
   * protected-resource and authorisation-server metadata are read, this product registers itself
   * as a client, and the user is sent to authorise (PKCE); the server is kept, waiting, with the
   * authorisation URL to open. `finishOAuth` takes the code back.
   */
  private async addWithOAuth(userId: string, id: string, name: string, url: string): Promise<McpServer> {
    const stored = await this.repo.insert({
      id,
      userId,
      name,
      url,
      tokenSealed: null,
      auth: 'oauth',
      oauthSealed: this.sealed(JSON.stringify({}), id),
      tools: [],
      listedAt: null,
    });
    if (!stored) throw DomainError.conflict(MCP_NAME_TAKEN);
    this.facts.changed(userId);
    const { provider, kept } = this.oauthOf(stored);
    let result: 'AUTHORIZED' | 'REDIRECT';
    try {
      result = await oauth(provider, { serverUrl: url, fetchFn: this.outbound.fetchLike(this.config.MCP_MAX_BYTES) });
    } catch (error) {
      await this.repo.remove(userId, id);
      this.facts.changed(userId);
      throw DomainError.badRequest(`The server's authorisation could not be started: ${reasonOf(error)}`);
    }
    if (result === 'AUTHORIZED') return this.relisted(userId, stored);
    return toView(stored, kept.authorizationUrl ?? null);
  }

  /** The user came back from authorising: the code is exchanged for tokens (kept sealed), and the tools listed. */
  async finishOAuth(caller: Caller, input: { server_id: string; code: string; state: string }): Promise<McpServer> {
    const userId = ownerOf(caller);
    const server = await this.owned(userId, input.server_id);
    if (server.auth !== 'oauth') throw DomainError.badRequest(OAUTH_NOT_UNDER_WAY);
    const { provider, kept } = this.oauthOf(server);
    if (!kept.state || kept.state !== input.state) throw DomainError.badRequest(OAUTH_NOT_UNDER_WAY);
    try {
      const result = await oauth(provider, {
        serverUrl: server.url,
        authorizationCode: input.code,
        fetchFn: this.outbound.fetchLike(this.config.MCP_MAX_BYTES),
      });
      if (result !== 'AUTHORIZED') throw new Error('the server asked to authorise again');
    } catch (error) {
      throw DomainError.badRequest(`The authorisation failed: ${reasonOf(error)}`);
    }
    return this.relisted(userId, (await this.repo.find(userId, server.id)) ?? server);
  }

  private async relisted(userId: string, server: McpServerRecord): Promise<McpServer> {
    const tools = await this.listTools(this.targetOf(server));
    const updated = await this.repo.update(userId, server.id, { tools, listedAt: new Date() });
    if (!updated) throw DomainError.notFound(MCP_SERVER_NOT_FOUND);
    return toView(updated);
  }

  /** The SDK's OAuth client for a server, saving what the flow keeps (sealed) in its row. */
  private oauthOf(server: McpServerRecord): { provider: McpOAuthProvider; kept: McpOAuthState } {
    const kept: McpOAuthState = server.oauthSealed ? (JSON.parse(this.opened(server.oauthSealed, server.id)) as McpOAuthState) : {};
    const redirect = publicUrlFor(this.config.PUBLIC_URL, '/settings/mcp-callback');
    const provider = new McpOAuthProvider(server.id, redirect, kept, async (state) => {
      await this.repo.update(server.userId, server.id, { oauthSealed: this.sealed(JSON.stringify(state), server.id) });
    });
    return { provider, kept };
  }

  private opened(sealed: string, rowId: string): string {
    if (!this.seal) throw DomainError.unavailable('Secrets cannot be read: the operator has not set TOOLS_ENCRYPTION_KEY.');
    return this.seal.open(sealed, rowId);
  }

  /** How to reach a server: its URL, its token or its OAuth client. */
  private targetOf(server: McpServerRecord) {
    return {
      url: server.url,
      token: this.tokenOf(server),
      ...(server.auth === 'oauth' ? { authProvider: this.oauthOf(server).provider } : {}),
    };
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
    return this.relisted(userId, server);
  }

  async remove(caller: Caller, serverId: string): Promise<{ removed: true }> {
    const userId = ownerOf(caller);
    if (!(await this.repo.remove(userId, serverId))) throw DomainError.notFound(MCP_SERVER_NOT_FOUND);
    this.facts.changed(userId);
    return { removed: true };
  }

  /** The caller's servers with the tools they switched on (read for every reply). */
  async enabledTools(userId: string): Promise<{ server: McpServerRecord; tool: McpToolInfo }[]> {
    // Most users have none: known here (UserFactsCache) until one is added. Their records are read each time.
    if (this.facts.get(userId, 'hasMcpServers') === false) return [];
    const servers = await this.facts.lookup(
      userId,
      'hasMcpServers',
      () => this.repo.list(userId),
      (list) => list.length > 0,
    );
    return servers.flatMap((server) =>
      server.tools.filter((tool) => !server.disabledTools.includes(tool.name)).map((tool) => ({ server, tool })),
    );
  }

  /** Calls one tool of a server (a reply's tool call); McpServerError when the server fails to answer. */
  async call(server: McpServerRecord, tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<McpCallOutcome> {
    return callServerTool(
      this.targetOf(server),
      this.outbound.fetchLike(this.config.MCP_MAX_BYTES),
      { tool, args },
      {
        signal,
        timeoutMs: this.config.MCP_TIMEOUT_MS,
      },
    );
  }

  private async checkedUrl(raw: string): Promise<string> {
    try {
      return (await this.outbound.check(raw)).url.toString();
    } catch (error) {
      if (error instanceof OutboundRefused) throw DomainError.badRequest(`That server cannot be used: ${error.reason}`);
      throw error;
    }
  }

  private async listTools(target: McpTarget): Promise<McpToolInfo[]> {
    try {
      return await listServerTools(target, this.outbound.fetchLike(this.config.MCP_MAX_BYTES), this.config.MCP_TIMEOUT_MS);
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

export function toView(server: McpServerRecord, authorizationUrl: string | null = null): McpServer {
  const waiting = server.auth === 'oauth' && !server.listedAt;
  return {
    server_id: server.id,
    name: server.name,
    url: server.url,
    auth: server.auth,
    status: waiting ? 'needs_authorization' : 'ready',
    authorization_url: waiting ? authorizationUrl : null,
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
