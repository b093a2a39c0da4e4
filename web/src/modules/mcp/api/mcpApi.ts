import type { McpServer } from '@app/contracts/chat';
import { API } from '@app/contracts/gateway';
import { call } from '../../common/api/http';

const item = (id: string) => ({ params: { server_id: id } });

export const fetchMcpServers = (): Promise<McpServer[]> => call(API.mcp.list, {}, { orElse: [], failure: 'Failed to fetch MCP servers' });

export const addMcpServer = (body: { name: string; url: string; access_token?: string; oauth?: boolean }): Promise<McpServer> =>
  call(API.mcp.add, { body });

export const updateMcpServer = (id: string, body: { name?: string; access_token?: string | null; tools?: Record<string, boolean> }) =>
  call(API.mcp.update, { ...item(id), body });

/** The code and state the callback page received: the server's OAuth authorisation is finished. */
export const finishMcpOAuth = (id: string, body: { code: string; state: string }): Promise<McpServer> =>
  call(API.mcp.finishOAuth, { ...item(id), body });

export const refreshMcpServer = (id: string) => call(API.mcp.refresh, item(id));

export const removeMcpServer = (id: string) => call(API.mcp.remove, item(id));
