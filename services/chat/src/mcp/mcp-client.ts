import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { OutboundRefused } from '../tools/outbound/guarded-fetch';

/** A tool as an MCP server lists it. */
export interface McpToolInfo {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** What a tool answered: its text, and whether the server said it failed (`isError`). */
export interface McpCallOutcome {
  text: string;
  isError: boolean;
}

export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** The most tools kept of one server, and the most characters of a description. */
const MAX_TOOLS = 100;
const MAX_DESCRIPTION = 1_000;

/** Why talking to an MCP server failed, in words for the user and the model. */
export class McpServerError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'McpServerError';
  }
}

/** Where a server is and how to authorise with it. */
export interface McpTarget {
  url: string;
  token: string | null;
  authProvider?: OAuthClientProvider;
}

/** Why a call to a server failed, in words for the user and the model (tokens never shown). */
export function reasonOf(error: unknown): string {
  if (error instanceof OutboundRefused) return error.reason;
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/Bearer\s+\S+/gi, 'Bearer …').slice(0, 300) || 'it did not answer';
}

/**
 * One conversation with a user's MCP server over Streamable HTTP, through the official SDK and the
 * outbound guard's fetch: connect (initialize), list or call, close. Stateless between calls, so
 * any chat replica can make any call.
 */
export async function withMcpServer<T>(
  server: McpTarget,
  fetchLike: FetchLike,
  options: { signal: AbortSignal; timeoutMs: number },
  work: (client: Client) => Promise<T>,
): Promise<T> {
  const transport = new StreamableHTTPClientTransport(new URL(server.url), {
    fetch: fetchLike,
    authProvider: server.authProvider,
    requestInit: server.token ? { headers: { authorization: `Bearer ${server.token}` } } : undefined,
  });
  const client = new Client({ name: 'assistant', version: '1.0.0' }, { capabilities: {} });
  try {
    await client.connect(transport, { signal: options.signal, timeout: options.timeoutMs });
    return await work(client);
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** The server's tools (a bounded number, each with a bounded description, only well-formed ones). */
export async function listMcpTools(client: Client, options: { signal: AbortSignal; timeoutMs: number }): Promise<McpToolInfo[]> {
  const listed = await client.listTools({}, { signal: options.signal, timeout: options.timeoutMs });
  const tools: McpToolInfo[] = [];
  for (const tool of listed.tools.slice(0, MAX_TOOLS)) {
    if (typeof tool.name !== 'string' || !tool.name.trim()) continue;
    tools.push({
      name: tool.name.slice(0, 128),
      description: (tool.description ?? '').slice(0, MAX_DESCRIPTION),
      inputSchema: (tool.inputSchema as Record<string, unknown>) ?? { type: 'object' },
    });
  }
  return tools;
}

/** Calls a tool; its content as text (text parts as they are, others named). */
export async function callMcpTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  options: { signal: AbortSignal; timeoutMs: number },
): Promise<McpCallOutcome> {
  const result = await client.callTool({ name, arguments: args }, undefined, { signal: options.signal, timeout: options.timeoutMs });
  const content = Array.isArray(result.content) ? (result.content as { type: string; text?: string }[]) : [];
  const text = content.map((part) => (part.type === 'text' && typeof part.text === 'string' ? part.text : `[${part.type}]`)).join('\n');
  return { text: text || JSON.stringify(result.structuredContent ?? {}), isError: result.isError === true };
}

/** A server's tools, listed in one conversation bounded by `timeoutMs` (a user's or an operator's server). */
export function listServerTools(target: McpTarget, fetchLike: FetchLike, timeoutMs: number): Promise<McpToolInfo[]> {
  const signal = AbortSignal.timeout(timeoutMs);
  return withMcpServer(target, fetchLike, { signal, timeoutMs }, (client) => listMcpTools(client, { signal, timeoutMs }));
}

/**
 * One tool call in one conversation with its server (a reply's tool call, to a user's or an
 * operator's server); a failure other than the reply's own abort is an McpServerError.
 */
export async function callServerTool(
  target: McpTarget,
  fetchLike: FetchLike,
  call: { tool: string; args: Record<string, unknown> },
  options: { signal: AbortSignal; timeoutMs: number },
): Promise<McpCallOutcome> {
  try {
    return await withMcpServer(target, fetchLike, options, (client) => callMcpTool(client, call.tool, call.args, options));
  } catch (error) {
    if (options.signal.aborted) throw error;
    throw new McpServerError(reasonOf(error), { cause: error });
  }
}
