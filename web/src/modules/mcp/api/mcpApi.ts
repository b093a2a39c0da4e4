import type { McpServer } from '@app/contracts/chat';

import { API } from '@app/contracts/gateway';
import { readCall, writeCall } from '../../common/api/dataCall';
import { routeCall } from '../../common/api/http';

const item = (id: string) => ({ params: { server_id: id } });

export const fetchMcpServers = (): Promise<McpServer[]> => readCall(routeCall(API.mcp.list, {}), [], 'Failed to fetch MCP servers');

export const addMcpServer = (body: { name: string; url: string; access_token?: string; oauth?: boolean }): Promise<McpServer> =>
  writeCall(routeCall(API.mcp.add, { body }));

export const updateMcpServer = (id: string, body: { name?: string; access_token?: string | null; tools?: Record<string, boolean> }) =>
  writeCall(routeCall(API.mcp.update, { ...item(id), body }));

/** The code and state the callback page received: the server's OAuth authorisation is finished. */
export const finishMcpOAuth = (id: string, body: { code: string; state: string }): Promise<McpServer> =>
  writeCall(routeCall(API.mcp.finishOAuth, { ...item(id), body }));

export const refreshMcpServer = (id: string) => writeCall(routeCall(API.mcp.refresh, item(id)));

export const removeMcpServer = (id: string) => writeCall(routeCall(API.mcp.remove, item(id)));
