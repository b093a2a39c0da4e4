import { Inject, Injectable } from '@nestjs/common';
import type { ToolRun } from '@app/contracts/chat';
import { AppLogger, SERVICE_CONFIG } from '@app/platform';
import { z } from 'zod';
import type { ChatConfig } from '../config';
import type { LlmToolCall } from '../llm/llm-provider';
import { ToolFailure, ToolRefusal } from '../tools/chat-tool';
import { ToolRegistry } from '../tools/tool-registry';
import type { ReplyContext } from './reply-context';

/** The most characters of a call's arguments kept in the metadata when they were not JSON. */
const RAW_ARGUMENTS_KEPT = 2_000;
/** What the model is told when its rounds of tool calls are spent. */
export const STEPS_SPENT = 'No more tools can be used in this reply: answer with what you have.';

/**
 * The tool loop (between streaming and storing). `offer` gives the reply its tools; after each
 * call to the model that asked for tools, `run` runs them one after the other and gives their
 * results back in the prompt, and the model is asked again, at most CHAT_MAX_TOOL_STEPS times.
 *
 * A call is checked against its tool's schema, run with CHAT_TOOL_TIMEOUT_MS and its output cut to
 * CHAT_TOOL_OUTPUT_MAX_CHARS. An unknown tool, arguments that are not JSON or do not fit, a failure,
 * a refusal or a timeout is told to the model as the tool's error, never as a failed reply. The
 * user's stop cancels the tool running (its signal is aborted) and ends the reply.
 */
@Injectable()
export class ToolsStep {
  constructor(
    @Inject(ToolRegistry) private readonly registry: Pick<ToolRegistry, 'toolsFor'>,
    @Inject(AppLogger) private readonly logger: Pick<AppLogger, 'warn'>,
    @Inject(SERVICE_CONFIG)
    private readonly config: Pick<ChatConfig, 'CHAT_MAX_TOOL_STEPS' | 'CHAT_TOOL_TIMEOUT_MS' | 'CHAT_TOOL_OUTPUT_MAX_CHARS'>,
  ) {}

  /** Loads the tools this reply may use and offers them to the model's first call. */
  async offer(ctx: ReplyContext): Promise<void> {
    if (this.config.CHAT_MAX_TOOL_STEPS === 0) return;
    try {
      ctx.toolSet = await this.registry.toolsFor(ctx.caller);
      ctx.offeredTools = ctx.toolSet.specs();
    } catch (failure) {
      // The reply goes on without tools.
      this.logger.warn({ msg: 'The tools could not be listed', error: String(failure), chat_id: ctx.conversation.id }, 'ToolsStep');
    }
  }

  /** Adds what the offered tools need the model to know (the user's time zone...) to its instructions. */
  instruct(ctx: ReplyContext): void {
    if (ctx.offeredTools.length && ctx.toolSet.notes.length) ctx.prompt.system = [ctx.prompt.system, ...ctx.toolSet.notes].join('\n');
  }

  /**
   * Whether the model's last call asked for tools (the pipeline then runs them and asks again).
   * Calls made when no tool was offered (the steps are spent) are dropped: the reply ends there.
   */
  wanted(ctx: ReplyContext): boolean {
    if (!ctx.offeredTools.length) ctx.round = { text: '', calls: [] };
    return ctx.round.calls.length > 0;
  }

  /** Runs the tools the model asked for, gives it their results, and says whether it may call tools again. */
  async run(ctx: ReplyContext): Promise<void> {
    const { text, calls } = ctx.round;
    ctx.round = { text: '', calls: [] };
    ctx.prompt.turns.push({ role: 'tool_calls', content: text, calls });
    for (const call of calls) {
      const output = ctx.stop.signal.aborted ? error('The reply was stopped.') : await this.call(ctx, call);
      ctx.prompt.turns.push({ role: 'tool_result', callId: call.id, name: call.name, output });
    }
    if (ctx.stop.signal.aborted) throw ctx.stop.signal.reason;
    ctx.toolSteps++;
    if (ctx.toolSteps >= this.config.CHAT_MAX_TOOL_STEPS) {
      // The model answers now, with no tools offered; it is told why.
      ctx.offeredTools = [];
      ctx.prompt.system = `${ctx.prompt.system}\n${STEPS_SPENT}`;
    }
  }

  /** One call: checked, run, recorded; what the model is told. */
  private async call(ctx: ReplyContext, call: LlmToolCall): Promise<string> {
    const startedAt = Date.now();
    const record = (status: ToolRun['status'], summary: string, args: unknown) =>
      ctx.toolRuns.push({ call_id: call.id, name: call.name, arguments: args, status, summary, duration_ms: Date.now() - startedAt });

    let args: unknown;
    try {
      args = call.arguments.trim() ? JSON.parse(call.arguments) : {};
    } catch {
      const raw = call.arguments.slice(0, RAW_ARGUMENTS_KEPT);
      record('error', 'The arguments were not JSON.', raw);
      return error('Your arguments were not valid JSON. Call the tool again with a JSON object.');
    }
    const tool = ctx.toolSet.get(call.name);
    if (!tool || !ctx.offeredTools.some((offered) => offered.name === call.name)) {
      record('error', 'There is no such tool.', args);
      return error(`There is no tool named "${call.name}" in this reply.`);
    }
    const parsed = tool.parameters.safeParse(args);
    if (!parsed.success) {
      record('error', 'The arguments did not fit the tool.', args);
      return error(`The arguments do not fit the tool's schema:\n${z.prettifyError(parsed.error)}`);
    }

    ctx.emit({ event: 'phase', data: { phase: 'tool', tool: tool.name, label: tool.label(parsed.data) } });
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new Error('timeout')), this.config.CHAT_TOOL_TIMEOUT_MS);
    const signal = AbortSignal.any([ctx.stop.signal, timeout.signal]);
    try {
      const cite = (source: { title: string; url: string }) => citeIn(ctx, source);
      const result = await abandonedOnAbort(
        tool.run(parsed.data, { caller: ctx.caller, chatId: ctx.conversation.id, signal, cite }),
        signal,
      );
      record('ok', result.summary, args);
      return this.capped(result.output);
    } catch (failure) {
      if (ctx.stop.signal.aborted) {
        record('cancelled', 'Stopped with the reply.', args);
        return error('The reply was stopped.');
      }
      if (timeout.signal.aborted) {
        record('timeout', `No answer within ${Math.round(this.config.CHAT_TOOL_TIMEOUT_MS / 1000)} s.`, args);
        return error('The tool took too long and was stopped. Tell the user, or try another way.');
      }
      if (failure instanceof ToolRefusal) {
        record('refused', failure.reason, args);
        return error(failure.reason);
      }
      if (failure instanceof ToolFailure) {
        record('error', failure.reason.slice(0, 300), args);
        return this.capped(error(failure.reason));
      }
      this.logger.warn({ msg: 'A tool failed', tool: call.name, error: String(failure), chat_id: ctx.conversation.id }, 'ToolsStep');
      record('error', 'The tool failed.', args);
      return error('The tool failed. Tell the user it did not work, or try another way.');
    } finally {
      clearTimeout(timer);
    }
  }

  private capped(output: string): string {
    const max = this.config.CHAT_TOOL_OUTPUT_MAX_CHARS;
    if (output.length <= max) return output;
    return `${output.slice(0, max)}\n[The tool's output was cut here: ${output.length - max} more characters were left out.]`;
  }
}

/** The most sources one reply keeps. */
const MAX_CITATIONS = 50;

/** A source's number in this reply: the one it has, or the next one. */
function citeIn(ctx: ReplyContext, source: { title: string; url: string }): number {
  const known = ctx.citations.find((c) => c.url === source.url);
  if (known) return known.n;
  const n = ctx.citations.length + 1;
  if (n > MAX_CITATIONS) return 0;
  let site = '';
  try {
    site = new URL(source.url).hostname.replace(/^www\./, '');
  } catch {
    site = '';
  }
  ctx.citations.push({ n, title: source.title.slice(0, 300), url: source.url, site });
  return n;
}

function error(message: string): string {
  return JSON.stringify({ error: message });
}

/** The tool's promise, or a rejection as soon as `signal` is aborted (a tool that ignores its signal is left behind). */
function abandonedOnAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => (signal.removeEventListener('abort', onAbort), resolve(value)),
      (failure) => (signal.removeEventListener('abort', onAbort), reject(failure)),
    );
  });
}
