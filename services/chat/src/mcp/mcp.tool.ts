import Ajv, { type ValidateFunction } from 'ajv';
import { z } from 'zod';
import { ToolFailure, type ChatTool, type ToolCallContext, type ToolResult } from '../tools/chat-tool';
import { McpServerError, type McpToolInfo } from './mcp-client';
import type { McpServerRecord } from './mcp-servers.repository';

const slug = (text: string, max: number) =>
  text
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, max) || 'x';

/**
 * What the model calls a server's tool: `mcp_<server>__<tool>`, within the providers' name rules
 * (^[a-zA-Z0-9_-]{1,64}$), so a tool named like a built-in one ("set_reminder") never takes its place.
 */
export function modelToolName(serverName: string, toolName: string): string {
  return `mcp_${slug(serverName, 20)}__${slug(toolName, 38)}`;
}

const ajv = new Ajv({ strict: false, allErrors: false, validateSchema: true });

/** A tool's input schema, checked: an object schema ajv can compile, or null (the tool is not offered). */
export function compiledSchema(schema: unknown): { schema: Record<string, unknown>; validate: ValidateFunction } | null {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return null;
  const object = schema as Record<string, unknown>;
  if (object.type !== undefined && object.type !== 'object') return null;
  if (JSON.stringify(object).length > 20_000) return null;
  try {
    return { schema: { type: 'object', ...object }, validate: ajv.compile(object) };
  } catch {
    return null;
  }
}

/** Calls a user's server for a tool (McpServersService.call). */
export type McpCall = (
  server: McpServerRecord,
  tool: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<{ text: string; isError: boolean }>;

/** One tool of a user's MCP server, as a tool of the loop: its own JSON Schema, checked by ajv. */
export class McpTool implements ChatTool<Record<string, unknown>> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly parameters: z.ZodType<Record<string, unknown>>;

  constructor(
    private readonly server: McpServerRecord,
    private readonly tool: McpToolInfo,
    schema: { schema: Record<string, unknown>; validate: ValidateFunction },
    private readonly callServer: McpCall,
  ) {
    this.name = modelToolName(server.name, tool.name);
    this.description = `[${server.name}] ${tool.description || tool.name}`.slice(0, 1_000);
    this.inputSchema = schema.schema;
    this.parameters = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
      if (!schema.validate(value))
        ctx.addIssue({
          code: 'custom',
          message: (schema.validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; '),
        });
    });
  }

  label(): string {
    return `Asking ${this.server.name}`;
  }

  async run(args: Record<string, unknown>, context: ToolCallContext): Promise<ToolResult> {
    let outcome: { text: string; isError: boolean };
    try {
      outcome = await this.callServer(this.server, this.tool.name, args, context.signal);
    } catch (error) {
      if (error instanceof McpServerError) throw new ToolFailure(`${this.server.name} did not answer: ${error.message}`);
      throw error;
    }
    if (outcome.isError) throw new ToolFailure(`${this.server.name} answered with an error: ${outcome.text.slice(0, 2_000)}`);
    return { output: outcome.text, summary: `${this.server.name}: ${this.tool.name}` };
  }
}
