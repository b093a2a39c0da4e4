import type { ReplyEvent, ToolRun } from '@app/contracts/chat';
import { INSIDER_CONFIG_RPC } from '@app/contracts/insider-config';
import { MEMORY_RPC } from '@app/contracts/memory';
import { z } from 'zod';
import { FakeBroadcastBus } from '@app/platform/testing';
import { chatEnvSchema, type ChatConfig } from '../config';
import type { LlmToolCall } from '../llm/llm-provider';
import { aCaller, aConversation } from '../testing/builders';
import { FakeAttachments } from '../testing/attachments.fake';
import { FakeRpc } from '../testing/bus.fakes';
import { FakeChatRepository } from '../testing/chat-repository.fake';
import { drafted } from '../testing/drafts';
import { aReplyWrites } from '../testing/reply-writes.fake';
import { FakeLogger } from '../testing/logger.fake';
import { FakeModel } from '../testing/model.fake';
import { FakeProjectsRepository } from '../testing/projects.fake';
import { ToolRefusal, type ChatTool } from '../tools/chat-tool';
import { ToolRegistry } from '../tools/tool-registry';
import { CheckpointStep } from './checkpoint.step';
import { InsiderFlagsCache } from './insider-flags.cache';
import { PersonalizeStep } from './personalize.step';
import { PromptStep } from './prompt.step';
import { newReplyContext, type ReplyContext } from './reply-context';
import { ReplyDrafts } from './reply-drafts';
import { ReplyLeases } from './reply-leases';
import { ReplyPipeline } from './reply-pipeline';
import { SaveStep } from './save.step';
import { StreamStep } from './stream.step';
import { STEPS_SPENT, ToolsStep } from './tools.step';

/** A tool for the tests: `run` decides what it does with the arguments and the signal. */
function aTool(name: string, run: ChatTool<{ city: string }>['run'], label = `Looking up ${name}`): ChatTool<{ city: string }> {
  return { name, description: `The ${name} of a city`, parameters: z.object({ city: z.string().min(1) }), label: () => label, run };
}

const call = (name: string, args: unknown, id = `call-${name}`): { type: 'tool_call'; call: LlmToolCall } => ({
  type: 'tool_call',
  call: { id, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
});
const names = (events: ReplyEvent[]) => events.map((e) => e.event);
const phases = (events: ReplyEvent[]) => events.flatMap((e) => (e.event === 'phase' ? [e.data] : []));
const errorOf = (output: string) => (JSON.parse(output) as { error: string }).error;

function setup(tools: ChatTool<{ city: string }>[], config: Partial<ChatConfig> = {}) {
  const settings: ChatConfig = { ...chatEnvSchema.parse({ CHAT_TOOL_TIMEOUT_MS: '200' }), ...config };
  const repo = new FakeChatRepository();
  const rpc = new FakeRpc()
    .answer(MEMORY_RPC.relevant, () => ({ memories: [] }))
    .answer(INSIDER_CONFIG_RPC.effectiveFlags, () => ({
      is_insider: false,
      is_insider_enabled: false,
      effective: {
        dislike_button_verbose_feedback: null,
        show_rewritten_user_message: null,
        show_auto_model_selection: null,
        enable_ko_search: null,
        can_create_invite: false,
      },
    }));
  const attachments = new FakeAttachments();
  const model = new FakeModel();
  const logger = new FakeLogger();
  const writes = aReplyWrites(logger);
  const pipeline = new ReplyPipeline(
    new CheckpointStep(repo, logger, settings, new ReplyLeases(repo, logger, settings, writes), writes),
    new PersonalizeStep(rpc, logger, new InsiderFlagsCache(rpc, new FakeBroadcastBus())),
    new PromptStep(repo, attachments, settings, new FakeProjectsRepository(repo)),
    new StreamStep(model, attachments, logger, settings),
    new ToolsStep(new ToolRegistry(tools as ChatTool[]), logger, settings),
    new SaveStep(repo, logger, writes),
    logger,
  );
  const drafts = new ReplyDrafts(repo, model, settings);
  const conversation = aConversation({ id: 'chat', userId: 'owner' });
  repo.seed(conversation);
  const reply = async (tweak?: (ctx: ReplyContext) => void) => {
    const events: ReplyEvent[] = [];
    const draft = await drafted(drafts, conversation, { content: 'How warm is Lisbon?', previousId: null });
    const ctx = newReplyContext({
      caller: aCaller('owner'),
      ...draft,
      stop: new AbortController(),
      emit: (e) => events.push(e),
    });
    tweak?.(ctx);
    await pipeline.run(ctx);
    const row = repo.messages.get(draft.reply.id)!;
    return { events, ctx, row, runs: (row.metadata.tools ?? []) as ToolRun[] };
  };
  return { model, logger, reply };
}

describe('the tool loop', () => {
  it('runs the tool the model asks for, gives its result back, and the model goes on', async () => {
    const seen: { args: unknown; chatId: string; user: string }[] = [];
    const weather = aTool('weather', async (args, context) => {
      seen.push({ args, chatId: context.chatId, user: String(context.caller.user_id) });
      return { output: '{"celsius":21}', summary: '21 °C in Lisbon' };
    });
    const { model, reply } = setup([weather]);
    model
      .script({ type: 'text', delta: 'Let me look. ' }, call('weather', { city: 'Lisbon' }))
      .script({ type: 'text', delta: 'It is 21 °C.' });
    const { events, row, runs } = await reply();

    expect(seen).toEqual([{ args: { city: 'Lisbon' }, chatId: 'chat', user: 'owner' }]);
    // The model was shown the tool, then asked again with its call and the result.
    expect(model.requests[0].tools).toEqual([
      {
        name: 'weather',
        description: 'The weather of a city',
        parameters: expect.objectContaining({ type: 'object', required: ['city'] }),
      },
    ]);
    expect(model.requests[1].turns.slice(-2)).toEqual([
      { role: 'tool_calls', content: 'Let me look. ', calls: [{ id: 'call-weather', name: 'weather', arguments: '{"city":"Lisbon"}' }] },
      { role: 'tool_result', callId: 'call-weather', name: 'weather', output: '{"celsius":21}' },
    ]);
    expect(phases(events)).toEqual([
      { phase: 'personalizing' },
      { phase: 'thinking' },
      { phase: 'tool', tool: 'weather', label: 'Looking up weather' },
      { phase: 'thinking' },
    ]);
    expect(names(events).slice(-2)).toEqual(['assistant_message', 'done']);
    expect(row).toMatchObject({ status: 'complete', content: 'Let me look. It is 21 °C.' });
    expect(runs).toEqual([
      {
        call_id: 'call-weather',
        name: 'weather',
        arguments: { city: 'Lisbon' },
        status: 'ok',
        summary: '21 °C in Lisbon',
        duration_ms: expect.any(Number),
      },
    ]);
  });

  it('tells the model, not the user, when a call is malformed: not JSON, an unknown tool, arguments that do not fit', async () => {
    const weather = aTool('weather', async () => ({ output: 'never', summary: 'never' }));
    const { model, reply } = setup([weather]);
    model
      .script(call('weather', '{"city": "Lis', 'a'), call('teleport', { city: 'Lisbon' }, 'b'), call('weather', { town: 'Lisbon' }, 'c'))
      .script({ type: 'text', delta: 'Sorry.' });
    const { events, row, runs } = await reply();
    const results = model.requests[1].turns.filter((t) => t.role === 'tool_result');
    expect(results.map((r) => errorOf(r.output))).toEqual([
      'Your arguments were not valid JSON. Call the tool again with a JSON object.',
      'There is no tool named "teleport" in this reply.',
      expect.stringContaining('city'),
    ]);
    expect(runs.map((r) => [r.call_id, r.status])).toEqual([
      ['a', 'error'],
      ['b', 'error'],
      ['c', 'error'],
    ]);
    expect(runs[0].arguments).toBe('{"city": "Lis');
    expect(row.status).toBe('complete');
    expect(names(events)).not.toContain('error');
    // None of them ran, so none showed a tool phase.
    expect(phases(events).filter((p) => p.phase === 'tool')).toEqual([]);
  });

  it('gives a failure, a refusal and a timeout back to the model as tool errors, and the reply completes', async () => {
    const broken = aTool('broken', async () => {
      throw new Error('ECONNRESET on 10.0.0.3');
    });
    const refusing = aTool('refusing', async () => {
      throw new ToolRefusal('Reminders by text need a verified phone number.');
    });
    const slow = aTool(
      'slow',
      (_args, context) => new Promise((_resolve, reject) => context.signal.addEventListener('abort', () => reject(new Error('aborted')))),
    );
    const { model, logger, reply } = setup([broken, refusing, slow]);
    model
      .script(call('broken', { city: 'x' }), call('refusing', { city: 'x' }), call('slow', { city: 'x' }))
      .script({ type: 'text', delta: 'Done.' });
    const { row, runs } = await reply();
    const outputs = model.requests[1].turns.flatMap((t) => (t.role === 'tool_result' ? [errorOf(t.output)] : []));
    expect(outputs).toEqual([
      'The tool failed. Tell the user it did not work, or try another way.',
      'Reminders by text need a verified phone number.',
      'The tool took too long and was stopped. Tell the user, or try another way.',
    ]);
    // The model is never told the internal error.
    expect(outputs.join(' ')).not.toContain('10.0.0.3');
    expect(runs.map((r) => r.status)).toEqual(['error', 'refused', 'timeout']);
    expect(row).toMatchObject({ status: 'complete', content: 'Done.' });
    expect(logger.said('warn')).toContain('A tool failed');
  });

  it('cuts a huge output to CHAT_TOOL_OUTPUT_MAX_CHARS and says so', async () => {
    const huge = aTool('huge', async () => ({ output: 'x'.repeat(5_000), summary: 'much' }));
    const { model, reply } = setup([huge], { CHAT_TOOL_OUTPUT_MAX_CHARS: 1_000 });
    model.script(call('huge', { city: 'x' })).script({ type: 'text', delta: 'ok' });
    await reply();
    const result = model.requests[1].turns.find((t) => t.role === 'tool_result') as { output: string };
    expect(result.output.startsWith('x'.repeat(1_000))).toBe(true);
    expect(result.output).toContain('4000 more characters were left out');
    expect(result.output.length).toBeLessThan(1_200);
  });

  it('stops offering tools after CHAT_MAX_TOOL_STEPS rounds, and tells the model why', async () => {
    let runs = 0;
    const again = aTool('again', async () => ({ output: String(++runs), summary: 'again' }));
    const { model, reply } = setup([again], { CHAT_MAX_TOOL_STEPS: 2 });
    model
      .script(call('again', { city: 'a' }, '1'))
      .script(call('again', { city: 'b' }, '2'))
      // Offered no tool, the model calls one anyway: it is not run, the reply ends with the text.
      .script({ type: 'text', delta: 'Enough.' }, call('again', { city: 'c' }, '3'));
    const { row } = await reply();
    expect(runs).toBe(2);
    expect(model.requests.map((r) => r.tools?.length ?? 0)).toEqual([1, 1, 0]);
    expect(model.requests[2].system).toContain(STEPS_SPENT);
    expect(row).toMatchObject({ status: 'complete', content: 'Enough.' });
  });

  it("cancels a running tool when the user stops the reply: the tool's signal is aborted and the reply ends stopped", async () => {
    let aborted = false;
    let ctx!: ReplyContext;
    const slow = aTool('slow', (_args, context) => {
      context.signal.addEventListener('abort', () => (aborted = true));
      setImmediate(() => ctx.stop.abort(new Error('stopped')));
      return new Promise(() => undefined); // never answers on its own
    });
    const { model, reply } = setup([slow], { CHAT_TOOL_TIMEOUT_MS: 60_000 });
    model.script({ type: 'text', delta: 'Checking. ' }, call('slow', { city: 'x' }));
    const { events, row, runs } = await reply((c) => (ctx = c));
    expect(aborted).toBe(true);
    expect(model.requests).toHaveLength(1);
    expect(runs.map((r) => r.status)).toEqual(['cancelled']);
    expect(row).toMatchObject({ status: 'incomplete', content: 'Checking. ' });
    expect(events.find((e) => e.event === 'error')?.data).toEqual({ detail: 'The reply was stopped.' });
  });

  it('offers no tools when CHAT_MAX_TOOL_STEPS is 0, and lets the reply go on when the tools cannot be listed', async () => {
    const weather = aTool('weather', async () => ({ output: '1', summary: '1' }));
    const off = setup([weather], { CHAT_MAX_TOOL_STEPS: 0 });
    await off.reply();
    expect(off.model.requests[0].tools).toEqual([]);

    const failing = setup([]);
    const registry = { toolsFor: () => Promise.reject(new Error('listing failed')) };
    (failing as unknown as { logger: FakeLogger }).logger.lines.length = 0;
    const step = new ToolsStep(registry, failing.logger, chatEnvSchema.parse({}));
    const ctx = { caller: aCaller(), conversation: { id: 'chat' }, offeredTools: [] } as unknown as ReplyContext;
    await step.offer(ctx);
    expect(ctx.offeredTools).toEqual([]);
    expect(failing.logger.said('warn')).toContain('The tools could not be listed');
  });

  it('keeps the sources tools cite, numbered once per link, in the reply metadata', async () => {
    const search = aTool('search', async (_args, context) => {
      const a = context.cite({ title: 'A', url: 'https://www.a.example/x' });
      const b = context.cite({ title: 'B', url: 'https://b.example/' });
      const again = context.cite({ title: 'A again', url: 'https://www.a.example/x' });
      return { output: JSON.stringify([a, b, again]), summary: 'found' };
    });
    const { model, reply } = setup([search]);
    model.script(call('search', { city: 'x' })).script({ type: 'text', delta: 'See [1] and [2].' });
    const { row } = await reply();
    expect((model.requests[1].turns.find((t) => t.role === 'tool_result') as { output: string }).output).toBe('[1,2,1]');
    expect(row.metadata.citations).toEqual([
      { n: 1, title: 'A', url: 'https://www.a.example/x', site: 'a.example' },
      { n: 2, title: 'B', url: 'https://b.example/', site: 'b.example' },
    ]);
  });
});
