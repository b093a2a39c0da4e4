import { z } from 'zod';
import { defineRpc } from '../common/contract';

// ---- Users' own MCP servers (issue 26): added in settings, their tools switched on or off ----

const id = z.uuid({ message: 'must be an id (UUID)' });

export const McpToolViewSchema = z.object({
  name: z.string(),
  description: z.string(),
  /** Offered to the model (the user can switch each tool off). */
  enabled: z.boolean(),
  /** What the model calls it: the server's name and the tool's, so it never takes a built-in tool's name. */
  model_name: z.string(),
});

export const McpServerSchema = z.object({
  server_id: z.string(),
  name: z.string(),
  url: z.string(),
  /** `token`: an access token is kept (sealed; never shown again); `oauth`: OAuth 2.1 (tokens sealed, refreshed). */
  auth: z.enum(['none', 'token', 'oauth']),
  /** `needs_authorization`: added with OAuth, waiting for the user to authorise at `authorization_url`. */
  status: z.enum(['ready', 'needs_authorization']),
  /** Only in the answer that starts an OAuth authorisation. */
  authorization_url: z.string().nullable(),
  tools: z.array(McpToolViewSchema),
  listed_at: z.string().nullable(),
  created_at: z.string(),
});
export type McpServer = z.infer<typeof McpServerSchema>;

const name = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(40)
  .regex(/^[\p{L}\p{N} _.-]+$/u, 'letters, digits, spaces, dots, dashes and underscores only');
const serverUrl = z.string().trim().min(1).max(2_000);
const token = z.string().trim().min(1).max(4_000);

/** `oauth`: authorise with OAuth 2.1 (the MCP authorisation specification) instead of a token. */
export const AddMcpServerBodySchema = z.object({ name, url: serverUrl, access_token: token.optional(), oauth: z.boolean().optional() });
export const FinishMcpOAuthBodySchema = z.object({ code: z.string().min(1).max(2_000), state: z.string().min(1).max(200) });
export const UpdateMcpServerBodySchema = z
  .object({
    name: name.optional(),
    /** A new token; null forgets the one kept. */
    access_token: token.nullable().optional(),
    /** Tools switched on (true) or off (false), by their name on the server. */
    tools: z.record(z.string().max(128), z.boolean()).optional(),
  })
  .refine((b) => b.name !== undefined || b.access_token !== undefined || b.tools !== undefined, 'give name, access_token or tools');
export const McpServerParamsSchema = z.object({ server_id: id });

export const MCP_RPC = {
  list: defineRpc({
    subject: 'chat.mcp.list',
    request: z.object({}).strict(),
    response: z.array(McpServerSchema),
    description: "The caller's MCP servers and their tools",
  }),
  add: defineRpc({
    subject: 'chat.mcp.add',
    request: AddMcpServerBodySchema.strict(),
    response: McpServerSchema,
    description: 'Add an MCP server (Streamable HTTP): it is reached and its tools listed first',
  }),
  update: defineRpc({
    subject: 'chat.mcp.update',
    request: z
      .object({
        server_id: id,
        name: name.optional(),
        access_token: token.nullable().optional(),
        tools: z.record(z.string().max(128), z.boolean()).optional(),
      })
      .strict(),
    response: McpServerSchema,
    description: 'Rename a server, change its token, switch its tools on or off',
  }),
  finishOAuth: defineRpc({
    subject: 'chat.mcp.oauth.finish',
    request: FinishMcpOAuthBodySchema.extend({ server_id: id }).strict(),
    response: McpServerSchema,
    description: "Take back an MCP server's OAuth authorisation code: tokens are kept sealed and the tools listed",
  }),
  refresh: defineRpc({
    subject: 'chat.mcp.refresh',
    request: z.object({ server_id: id }).strict(),
    response: McpServerSchema,
    description: "List a server's tools again",
  }),
  remove: defineRpc({
    subject: 'chat.mcp.remove',
    request: z.object({ server_id: id }).strict(),
    response: z.object({ removed: z.literal(true) }),
    description: 'Remove an MCP server (its token is forgotten)',
  }),
} as const;
