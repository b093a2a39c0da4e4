import type { Caller } from '@app/contracts';
import type { z } from 'zod';

/** What a tool knows of the reply it runs in. */
export interface ToolCallContext {
  readonly caller: Caller;
  /** The conversation the reply is written in. */
  readonly chatId: string;
  /** Aborted when the tool's time is up or the user stops the reply: a tool gives up then. */
  readonly signal: AbortSignal;
  /** Keeps a source the reply may cite (listed under it); answers its number, the same for the same URL. */
  cite(source: { title: string; url: string }): number;
}

/** A tool's answer: what the model is told (`output`) and the line kept in the reply's metadata (`summary`). */
export interface ToolResult {
  output: string;
  summary: string;
}

/**
 * A tool the model can call. Its arguments are a zod schema: the model is shown its JSON Schema,
 * and what the model writes is checked against it before `run` is called.
 */
export interface ChatTool<A = unknown> {
  readonly name: string;
  readonly description: string;
  readonly parameters: z.ZodType<A>;
  /** The JSON Schema the model is shown, when it is not the zod schema's (an MCP tool's own). */
  readonly inputSchema?: Record<string, unknown>;
  /** What the user sees while it runs ("Setting a reminder"). */
  label(args: A): string;
  run(args: A, context: ToolCallContext): Promise<ToolResult>;
  /** Whether it is offered at all (a tool whose service is not configured is not); offered when absent. */
  offered?(): boolean;
  /** A line for the model's instructions (what it needs to know to use it well, or that it is off) (what it needs to know to use it well), or null. */
  instructions?(caller: Caller): Promise<string | null>;
}

/**
 * A tool refusing on purpose (not allowed, not possible for this user): the model is told why, in
 * words it can pass on. Any other error is reported to the model as the tool having failed.
 */
export class ToolRefusal extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'ToolRefusal';
  }
}

/** A tool that failed with words the model may read (an MCP server's own error message). */
export class ToolFailure extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'ToolFailure';
  }
}

/** The tools offered to the model, provided by each feature (multi-provider token). */
export const CHAT_TOOLS = Symbol('CHAT_TOOLS');
