import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import { z } from 'zod';
import type { LlmToolSpec } from '../llm/llm-provider';
import { CHAT_TOOLS, type ChatTool } from './chat-tool';

/** The shape every provider accepts for a tool name (OpenAI: ^[a-zA-Z0-9_-]{1,64}$). */
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** The tools a reply may use, by name, with their specs as the model is shown them. */
export class ToolSet {
  private readonly byName = new Map<string, ChatTool>();

  /** `notes`: lines for the model's instructions, from the tools offered. */
  constructor(
    tools: ChatTool[],
    readonly notes: string[] = [],
  ) {
    for (const tool of tools) if (TOOL_NAME.test(tool.name) && !this.byName.has(tool.name)) this.byName.set(tool.name, tool);
  }

  get(name: string): ChatTool | undefined {
    return this.byName.get(name);
  }

  get size(): number {
    return this.byName.size;
  }

  specs(): LlmToolSpec[] {
    return [...this.byName.values()].map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.inputSchema ?? jsonSchemaOf(tool.parameters),
    }));
  }
}

/** The tools a user brings (their MCP servers'). */
export interface UserToolSource {
  toolsFor(caller: Caller): Promise<ChatTool[]>;
}
export const USER_TOOLS = Symbol('USER_TOOLS');

/**
 * Where the tools of a reply come from: the built-in ones every feature provides (CHAT_TOOLS), then
 * the user's own (USER_TOOLS: their MCP servers' tools that are switched on).
 * A built-in tool's name cannot be taken by another (the first one provided keeps it).
 */
@Injectable()
export class ToolRegistry {
  private readonly builtIn: ChatTool[];

  constructor(
    @Optional() @Inject(CHAT_TOOLS) tools?: ChatTool[],
    @Optional() @Inject(USER_TOOLS) private readonly userTools?: UserToolSource,
  ) {
    this.builtIn = tools ?? [];
  }

  /** The tools offered in a reply to this caller. */
  async toolsFor(caller: Caller): Promise<ToolSet> {
    const notes = await Promise.all(this.builtIn.map((tool) => tool.instructions?.(caller) ?? null));
    // The built-in tools first: a user's tool never takes a built-in one's name.
    const offered = [...this.builtIn.filter((tool) => tool.offered?.() ?? true), ...((await this.userTools?.toolsFor(caller)) ?? [])];
    return new ToolSet(
      offered,
      notes.filter((note): note is string => !!note),
    );
  }
}

/** Each built-in tool's JSON Schema, made once: converting it took a noticeable share of a reply's start. */
const jsonSchemas = new WeakMap<z.ZodType, Record<string, unknown>>();

/** A zod schema as the JSON Schema a model is shown (draft 2020-12, without the `$schema` line); read-only, shared. */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  let json = jsonSchemas.get(schema);
  if (!json) {
    const { $schema: _ignored, ...converted } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    jsonSchemas.set(schema, (json = converted));
  }
  return json;
}
