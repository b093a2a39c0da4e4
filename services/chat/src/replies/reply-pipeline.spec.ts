import type { ReplyEvent } from '@app/contracts/chat';
import { INSIDER_CONFIG_RPC } from '@app/contracts/insider-config';
import { MEMORY_RPC } from '@app/contracts/memory';
import { FakeBroadcastBus } from '@app/platform/testing';
import { chatEnvSchema, type ChatConfig } from '../config';
import { LlmError } from '../llm/llm-error';
import type { LlmMessageTurn, ProviderDescriptor } from '../llm/llm-provider';
import { aCaller, aConversation, aMessage } from '../testing/builders';
import { FakeAttachments } from '../testing/attachments.fake';
import { FakeRpc } from '../testing/bus.fakes';
import { FakeChatRepository } from '../testing/chat-repository.fake';
import { drafted } from '../testing/drafts';
import { aReplyWrites } from '../testing/reply-writes.fake';
import { FakeLogger } from '../testing/logger.fake';
import { FakeModel } from '../testing/model.fake';
import { FakeProjectsRepository } from '../testing/projects.fake';
import { CheckpointStep } from './checkpoint.step';
import { ReplyLeases } from './reply-leases';
import { InsiderFlagsCache } from './insider-flags.cache';
import { PERSONALIZE_TIMEOUT_MS, PersonalizeStep } from './personalize.step';
import { PromptStep } from './prompt.step';
import { newReplyContext, type ReplyContext } from './reply-context';
import { ReplyDrafts } from './reply-drafts';
import { HISTORY_UNREADABLE, REPLY_NOT_SAVED, ReplyStopped, SHUTDOWN_DETAIL } from './reply-failure';
import { ReplyPipeline } from './reply-pipeline';
import { SaveStep } from './save.step';
import { StreamStep } from './stream.step';
import { ToolsStep } from './tools.step';
import { ToolRegistry } from '../tools/tool-registry';

const flags = (showRewritten: boolean | null) => ({
  is_insider: true,
  is_insider_enabled: true,
  effective: {
    dislike_button_verbose_feedback: null,
    show_rewritten_user_message: showRewritten,
    show_auto_model_selection: null,
    enable_ko_search: null,
    can_create_invite: false,
  },
});
const memory = (id: string, text: string) => ({ user_memory_id: id, text, is_confirmed: true });
const names = (events: ReplyEvent[]) => events.map((e) => e.event);
const texts = (events: ReplyEvent[]) => events.flatMap((e) => (e.event === 'text' ? [e.data.delta] : [])).join('');
const eventOf = <K extends ReplyEvent['event']>(events: ReplyEvent[], name: K) =>
  events.find((e) => e.event === name) as Extract<ReplyEvent, { event: K }> | undefined;

/** The pipeline with its real steps, and every dependency a typed fake. */
function setup(options: { config?: Partial<ChatConfig>; provider?: ProviderDescriptor } = {}) {
  const config: ChatConfig = { ...chatEnvSchema.parse({ CHAT_FAST_MODEL: 'fast', CHAT_REASONING_MODEL: 'thinker' }), ...options.config };
  const repo = new FakeChatRepository();
  const rpc = new FakeRpc()
    .answer(MEMORY_RPC.relevant, () => ({ memories: [] }))
    .answer(INSIDER_CONFIG_RPC.effectiveFlags, () => flags(null));
  const attachments = new FakeAttachments();
  const projects = new FakeProjectsRepository(repo);
  const model = new FakeModel(options.provider);
  const logger = new FakeLogger();
  const writes = aReplyWrites(logger);
  const leases = new ReplyLeases(repo, logger, config, writes);
  const pipeline = new ReplyPipeline(
    new CheckpointStep(repo, logger, config, leases, writes),
    new PersonalizeStep(rpc, logger, new InsiderFlagsCache(rpc, new FakeBroadcastBus())),
    new PromptStep(repo, attachments, config, projects),
    new StreamStep(model, attachments, logger, config),
    new ToolsStep(new ToolRegistry([]), logger, config),
    new SaveStep(repo, logger, writes),
    logger,
  );
  const drafts = new ReplyDrafts(repo, model, config);
  const conversation = aConversation({ id: 'chat', userId: 'owner' });
  repo.seed(conversation);

  /** Sends `content` after `previousId` (the active message by default) and runs its reply to the end. */
  const reply = async (
    content = 'Where should I go in April?',
    previousId: string | null = conversation.lastActiveMessageId,
    tweak?: (ctx: ReplyContext) => void,
  ) => {
    const events: ReplyEvent[] = [];
    const draft = await drafted(drafts, conversation, { content, previousId });
    const ctx = newReplyContext({
      caller: aCaller('owner'),
      ...draft,
      stop: new AbortController(),
      emit: (e) => events.push(e),
    });
    tweak?.(ctx);
    await pipeline.run(ctx);
    return { events, ctx, row: repo.messages.get(draft.reply.id)! };
  };
  return { config, repo, rpc, attachments, projects, model, logger, writes, leases, pipeline, conversation, reply };
}

describe('the reply pipeline', () => {
  describe('a complete reply', () => {
    it('tells the client each phase, the text as it comes, then the stored reply and done', async () => {
      const { model, reply } = setup();
      model.script(
        { type: 'meta', requestId: 'req-1', model: 'fast' },
        { type: 'text', delta: 'Lisbon ' },
        { type: 'text', delta: 'in spring.' },
      );
      const { events } = await reply();
      expect(names(events)).toEqual(['phase', 'phase', 'text', 'text', 'assistant_message', 'done']);
      expect(events.slice(0, 2).map((e) => e.data)).toEqual([{ phase: 'personalizing' }, { phase: 'thinking' }]);
      expect(texts(events)).toBe('Lisbon in spring.');
      expect(eventOf(events, 'assistant_message')!.data).toMatchObject({
        content: 'Lisbon in spring.',
        sender: 'assistant',
        expert_name: 'Assistant',
      });
    });

    it('sends done without asking for a title, even for the first exchange (titles follow the exchange event)', async () => {
      const { model, conversation, reply } = setup();
      const { events } = await reply('The first message');
      expect(events.at(-1)?.event).toBe('done');
      expect(model.completions).toEqual([]);
      expect(conversation.title).toBeNull();
    });

    it('stores it complete, moves the conversation to it and enqueues the exchange with it', async () => {
      const { model, repo, conversation, reply } = setup();
      model.script({ type: 'text', delta: 'Lisbon.' });
      const { row, ctx } = await reply('Where to?');
      expect(row).toMatchObject({ status: 'complete', content: 'Lisbon.', previousMessageId: ctx.userMessage.id });
      expect(conversation.lastActiveMessageId).toBe(row.id);
      expect(repo.outbox).toEqual([
        {
          eventId: `exchange:${row.id}`,
          payload: {
            user_id: 'owner',
            chat_id: 'chat',
            user_message_id: ctx.userMessage.id,
            assistant_message_id: row.id,
            user_text: 'Where to?',
            assistant_text: 'Lisbon.',
          },
        },
      ]);
    });

    it('records on the reply which provider, request and model answered, how it was chosen and how long it took', async () => {
      const { model, reply } = setup();
      model.script(
        { type: 'meta', requestId: 'req-1', model: 'fast' },
        { type: 'text', delta: 'Hi' },
        { type: 'meta', requestId: null, model: 'fast-2026-01' },
      );
      const { row } = await reply('Hello');
      expect(row.metadata).toEqual({
        model: 'fast-2026-01',
        provider: 'openai',
        provider_label: 'OpenAI',
        offline: false,
        provider_request_id: 'req-1',
        auto_selected: true,
        memory_ids: [],
        files: [],
        duration_ms: expect.any(Number),
      });
    });

    it('asks the model chosen for the question, with reasoning for a hard one, and the configured tools', async () => {
      const { model, reply } = setup({ config: { CHAT_WEB_SEARCH: false, CHAT_IMAGE_GENERATION: true } });
      await reply('Prove it step by step');
      expect(model.requests[0]).toMatchObject({ model: 'thinker', reasoning: true, webSearch: false, imageGeneration: true });
    });

    it('labels a reply of the offline model as such, as data from the provider', async () => {
      const { reply } = setup({ provider: { id: 'offline', label: 'Offline model', offline: true, fixedModel: 'offline' } });
      const { row } = await reply('Prove it step by step');
      expect(row.metadata).toMatchObject({
        provider: 'offline',
        provider_label: 'Offline model',
        offline: true,
        model: 'offline',
        auto_selected: false,
      });
    });

    it('streams reasoning, and the search phase until the text resumes', async () => {
      const { model, reply } = setup();
      model.script(
        { type: 'reasoning', delta: 'Weighing ' },
        { type: 'reasoning', delta: 'options.' },
        { type: 'searching' },
        { type: 'searching' },
        { type: 'text', delta: 'Here.' },
      );
      const { events, row } = await reply();
      expect(events.filter((e) => e.event === 'phase').map((e) => e.data)).toEqual([
        { phase: 'personalizing' },
        { phase: 'thinking' },
        { phase: 'searching' },
        { phase: 'thinking' },
      ]);
      expect(row.metadata.reasoning).toBe('Weighing options.');
    });

    it('shows partial images in their slots and stores the final one as a file of the reply', async () => {
      const { model, attachments, reply } = setup();
      model.script(
        { type: 'image_partial', index: 0, base64: 'P0', mimeType: 'image/png' },
        { type: 'image_partial', index: 7, base64: 'P7', mimeType: 'image/png' },
        { type: 'image', base64: 'FINAL', mimeType: 'image/png' },
      );
      const { events, row } = await reply('Draw a cat');
      expect(events.filter((e) => e.event === 'image_partial').map((e) => e.data)).toEqual([
        { index: 0, data_url: 'data:image/png;base64,P0' },
        { index: 2, data_url: 'data:image/png;base64,P7' },
      ]);
      expect(attachments.stored).toEqual([{ base64: 'FINAL', mimeType: 'image/png' }]);
      expect(eventOf(events, 'image')!.data).toEqual({ object_store_object_id: 'generated-1', mime_type: 'image/png' });
      expect(row.metadata.files).toEqual([{ object_store_object_id: 'generated-1', mime_type: 'image/png' }]);
    });

    it('still shows an image it could not store, in the last slot, without failing the reply', async () => {
      const { model, attachments, logger, reply } = setup();
      attachments.storeFails = true;
      model.script({ type: 'image', base64: 'FINAL', mimeType: 'image/png' }, { type: 'text', delta: 'A cat.' });
      const { events, row } = await reply('Draw a cat');
      expect(events.filter((e) => e.event === 'image_partial').map((e) => e.data)).toEqual([
        { index: 2, data_url: 'data:image/png;base64,FINAL' },
      ]);
      expect(row).toMatchObject({ status: 'complete', metadata: expect.objectContaining({ files: [] }) });
      expect(logger.said('warn')).toContain('A generated image could not be stored');
    });
  });

  describe('personalize', () => {
    it("asks the memory service for the user's memories relevant to the message, and gives them to the model", async () => {
      const { rpc, model, reply } = setup();
      rpc.answer(MEMORY_RPC.relevant, () => ({ memories: [memory('m1', 'Lives in Lisbon'), memory('m2', 'Is vegetarian')] }));
      const { row } = await reply('What should I cook tonight?');
      expect(rpc.calls.find((c) => c.subject === MEMORY_RPC.relevant.subject)).toMatchObject({
        data: { query: 'What should I cook tonight?', limit: 8 },
        caller: { user_id: 'owner' },
        timeoutMs: PERSONALIZE_TIMEOUT_MS,
      });
      expect(model.requests[0].system).toContain(
        'What you know about the user (use it when it helps, never recite it unasked):\n- Lives in Lisbon\n- Is vegetarian',
      );
      expect(row.metadata.memory_ids).toEqual(['m1', 'm2']);
    });

    it("answers a shared conversation (an SMS group) with nobody's memories and learns nothing from it", async () => {
      const { rpc, model, repo, conversation, reply } = setup();
      conversation.isShared = true;
      rpc.answer(MEMORY_RPC.relevant, () => ({ memories: [memory('m1', 'Lives in Lisbon')] }));
      model.script({ type: 'text', delta: 'Lisbon.' });
      const { row, events } = await reply('Where does Ana live?');
      expect(row).toMatchObject({ status: 'complete', content: 'Lisbon.' });
      expect(rpc.calls.map((c) => c.subject)).not.toContain(MEMORY_RPC.relevant.subject);
      expect(rpc.calls.map((c) => c.subject)).not.toContain(INSIDER_CONFIG_RPC.effectiveFlags.subject);
      expect(model.requests[0].system).not.toContain('What you know');
      expect(events.map((e) => e.data)).not.toContainEqual({ phase: 'personalizing' });
      expect(repo.outbox).toEqual([]);
    });

    it('answers a temporary chat with no memories and learns nothing from it (no exchange event)', async () => {
      const { rpc, model, repo, conversation, reply } = setup();
      conversation.expiresAt = new Date(Date.now() + 86_400_000);
      rpc.answer(MEMORY_RPC.relevant, () => ({ memories: [memory('m1', 'Lives in Lisbon')] }));
      model.script({ type: 'text', delta: 'Noted.' });
      const { row, events } = await reply('I moved to Porto.');
      expect(row).toMatchObject({ status: 'complete', content: 'Noted.' });
      expect(rpc.calls.map((c) => c.subject)).not.toContain(MEMORY_RPC.relevant.subject);
      expect(model.requests[0].system).not.toContain('What you know');
      expect(events.map((e) => e.data)).not.toContainEqual({ phase: 'personalizing' });
      expect(repo.outbox).toEqual([]);
    });

    it('answers without memories when the memory service does not answer', async () => {
      const { rpc, model, logger, reply } = setup();
      rpc.answer(MEMORY_RPC.relevant, () => {
        throw new Error('timeout');
      });
      const { row } = await reply();
      expect(row.status).toBe('complete');
      expect(row.metadata.memory_ids).toEqual([]);
      expect(model.requests[0].system).not.toContain('What you know');
      expect(logger.said('warn')).toContain('Answering without memories');
    });

    it('shows the query back only to a user whose effective flags ask for it', async () => {
      for (const [flag, shown] of [
        [true, true],
        [false, false],
        [null, false],
      ] as const) {
        const { rpc, reply } = setup();
        rpc.answer(INSIDER_CONFIG_RPC.effectiveFlags, () => flags(flag));
        const { events, row } = await reply('  Where   should I\ngo?  ');
        expect([flag, eventOf(events, 'rewritten_query')?.data]).toEqual([flag, shown ? { text: 'Where should I go?' } : undefined]);
        expect([flag, row.metadata.rewritten_query]).toEqual([flag, shown ? 'Where should I go?' : undefined]);
      }
    });

    it('asks the flags of the caller, and goes on without them when the service fails', async () => {
      const { rpc, reply } = setup();
      rpc.answer(INSIDER_CONFIG_RPC.effectiveFlags, () => {
        throw new Error('away');
      });
      const { events, row } = await reply();
      expect(rpc.calls.find((c) => c.subject === INSIDER_CONFIG_RPC.effectiveFlags.subject)?.data).toEqual({ user_id: 'owner' });
      expect(eventOf(events, 'rewritten_query')).toBeUndefined();
      expect(row.status).toBe('complete');
    });
  });

  describe('build the prompt', () => {
    /** u1 → a1 → u2 → a2 on the active branch, with a sibling a1' of a1 and a sibling u2' of u2. */
    const branched = (s: ReturnType<typeof setup>) => {
      const chat = 'chat';
      s.repo.seed(
        aMessage({ id: 'u1', chatId: chat, content: 'A' }),
        aMessage({ id: 'a1', chatId: chat, sender: 'assistant', previousMessageId: 'u1', content: 'reply A' }),
        aMessage({ id: "a1'", chatId: chat, sender: 'assistant', previousMessageId: 'u1', content: 'other reply A' }),
        aMessage({ id: 'u2', chatId: chat, previousMessageId: 'a1', content: 'B' }),
        aMessage({ id: "u2'", chatId: chat, previousMessageId: 'a1', content: 'B, edited' }),
        aMessage({ id: 'a2', chatId: chat, sender: 'assistant', previousMessageId: 'u2', content: 'reply B' }),
      );
      s.conversation.lastActiveMessageId = 'a2';
    };
    const turns = (s: ReturnType<typeof setup>, i = 0) =>
      s.model.requests[i].turns.map((t) => `${t.role}:${'content' in t ? t.content : ''}`);

    it('shows the model the active branch, walked back from the message answered, and nothing of the others', async () => {
      const s = setup();
      branched(s);
      await s.reply('C');
      expect(turns(s)).toEqual(['user:A', 'assistant:reply A', 'user:B', 'assistant:reply B', 'user:C']);
    });

    it('follows the branch a new message is sent on (an edit starts from the message before)', async () => {
      const s = setup();
      branched(s);
      await s.reply('B, again', 'a1');
      expect(turns(s)).toEqual(['user:A', 'assistant:reply A', 'user:B, again']);
      await s.reply('Only this', null);
      expect(turns(s, 1)).toEqual(['user:Only this']);
    });

    it('leaves out hidden messages, empty replies and the reply being written', async () => {
      const s = setup();
      s.repo.seed(
        aMessage({ id: 'u1', chatId: 'chat', content: 'A' }),
        aMessage({ id: 'a1', chatId: 'chat', sender: 'assistant', previousMessageId: 'u1', content: '' }),
        aMessage({ id: 'u2', chatId: 'chat', previousMessageId: 'a1', content: 'secret', hidden: true }),
      );
      s.conversation.lastActiveMessageId = 'u2';
      await s.reply('B');
      expect(turns(s)).toEqual(['user:A', 'user:B']);
    });

    it('keeps only the last CHAT_CONTEXT_MESSAGES messages', async () => {
      const s = setup({ config: { CHAT_CONTEXT_MESSAGES: 3 } });
      branched(s);
      await s.reply('C');
      expect(turns(s)).toEqual(['user:B', 'assistant:reply B', 'user:C']);
    });

    it("asks for the attachments of the user's turns only, and shows them with their turn", async () => {
      const s = setup();
      s.repo.seed(
        aMessage({
          id: 'u1',
          chatId: 'chat',
          content: 'Look',
          metadata: { files: [{ object_store_object_id: 'leaf', mime_type: 'image/png' }] },
        }),
        aMessage({
          id: 'a1',
          chatId: 'chat',
          sender: 'assistant',
          previousMessageId: 'u1',
          content: 'A leaf.',
          metadata: { files: [{ object_store_object_id: 'drawn', mime_type: 'image/png' }] },
        }),
      );
      s.conversation.lastActiveMessageId = 'a1';
      await s.reply('And now?');
      expect(s.attachments.shownFor[0].map((m) => m.id)).toEqual(['u1', expect.any(String)]);
      expect(s.attachments.shownFor[0][0].files).toEqual([{ object_store_object_id: 'leaf', mime_type: 'image/png' }]);
      expect((s.model.requests[0].turns[0] as LlmMessageTurn).attachments).toEqual([
        { kind: 'image', filename: 'leaf', dataUrl: 'data:image/png;base64,AA' },
      ]);
      expect((s.model.requests[0].turns[1] as LlmMessageTurn).attachments).toBeUndefined();
    });

    it('tells the model who it is and what day it is', async () => {
      const s = setup({ config: { CHAT_EXPERT_NAME: 'Ada' } });
      await s.reply();
      expect(s.model.requests[0].system).toMatch(/^You are Ada, a personal assistant\..*\nToday is \d{4}-\d{2}-\d{2}\.$/);
    });
  });

  describe("in a project's conversation", () => {
    it("gives the model the project's instructions, between markers, after the product's own", async () => {
      const s = setup();
      s.projects.seed({ id: 'p1', userId: 'owner', name: 'Thesis', instructions: 'Answer in French.\nCite page numbers.' });
      s.conversation.projectId = 'p1';
      await s.reply();
      const system = s.model.requests[0].system;
      expect(system).toContain('This conversation is in the user\'s project "Thesis".');
      expect(system).toContain('<project_instructions>\nAnswer in French.\nCite page numbers.\n</project_instructions>');
      expect(system.indexOf('You are')).toBeLessThan(system.indexOf('<project_instructions>'));
    });

    it("gives the model the project's files with the message being answered, before that message's own", async () => {
      const s = setup();
      s.projects.seed({
        id: 'p1',
        userId: 'owner',
        files: [{ object_store_object_id: 'brief', mime_type: 'image/png', filename: 'brief.png' }],
      });
      s.conversation.projectId = 'p1';
      await s.reply('What does the brief say?');
      const turns = s.model.requests[0].turns as LlmMessageTurn[];
      expect(turns.at(-1)!.attachments).toEqual([{ kind: 'image', filename: 'brief', dataUrl: 'data:image/png;base64,AA' }]);
      expect(s.model.requests[0].system).not.toContain('<project_instructions>');
    });

    it("says nothing of a project once the conversation is out of it, or of a project that is not the owner's", async () => {
      const s = setup();
      s.projects.seed({ id: 'p1', userId: 'someone-else', instructions: 'Leak this.' });
      s.conversation.projectId = 'p1';
      await s.reply();
      s.conversation.projectId = null;
      await s.reply();
      for (const request of s.model.requests) {
        expect(request.system).not.toContain('project');
        expect(request.system).not.toContain('Leak this.');
      }
    });
  });

  describe('a reply that ends early', () => {
    it('keeps what the model wrote before it failed, as an incomplete reply, and says why', async () => {
      const { model, repo, logger, reply } = setup();
      model.script({ type: 'text', delta: 'Half an ans' }, new LlmError('unavailable', 'The model failed: overloaded'));
      const { events, row } = await reply();
      expect(names(events).slice(-3)).toEqual(['assistant_message', 'error', 'done']);
      expect(eventOf(events, 'error')!.data).toEqual({ detail: 'The model failed: overloaded' });
      expect(row).toMatchObject({ status: 'incomplete', content: 'Half an ans', metadata: expect.objectContaining({ incomplete: true }) });
      expect(repo.outbox).toEqual([]);
      expect(logger.said('warn')).toContain('The model failed');
    });

    it('says the model failed when a provider breaks its promise and throws something else', async () => {
      const { model, reply } = setup();
      model.script(new TypeError('Cannot read properties of undefined'));
      const { events } = await reply();
      expect(eventOf(events, 'error')!.data.detail).toBe('The model failed to answer. Please try again.');
    });

    it('prompts with the history the start read with its writes, without reading it again', async () => {
      const { repo, model, reply } = setup();
      await reply('First question');
      repo.fail('chatMessages');
      const { events, row } = await reply('Second question');
      expect(eventOf(events, 'error')).toBeUndefined();
      expect(row.status).toBe('complete');
      expect(model.requests.at(-1)!.turns.map((t) => ('content' in t ? t.content : t.role))).toEqual([
        'First question',
        expect.any(String),
        'Second question',
      ]);
    });

    it('says a storage failure is one: the history could not be read, so the model was not asked', async () => {
      const { repo, model, logger, reply } = setup();
      repo.fail('chatMessages');
      // Read here when the start did not read it (a reply answered again).
      const { events, row } = await reply(undefined, undefined, (ctx) => Object.assign(ctx, { history: undefined }));
      expect(eventOf(events, 'error')!.data.detail).toBe(HISTORY_UNREADABLE);
      expect(model.requests).toEqual([]);
      expect(row).toMatchObject({ status: 'incomplete', content: '' });
      expect(logger.said('error')).toContain(HISTORY_UNREADABLE);
      expect(logger.said('warn')).not.toContain('The model failed');
    });

    it('says the reply could not be saved when storing it fails, without showing it as stored', async () => {
      const { repo, model, reply } = setup();
      model.script({ type: 'text', delta: 'Lisbon.' });
      repo.fail('finishReply');
      const { events, row } = await reply();
      expect(names(events).slice(-2)).toEqual(['error', 'done']);
      expect(names(events)).not.toContain('assistant_message');
      expect(eventOf(events, 'error')!.data.detail).toBe(REPLY_NOT_SAVED);
      // Left for ReplyRecovery: its lease runs out and it is stored as incomplete with what was saved.
      expect(row.status).toBe('streaming');
      expect(repo.outbox).toEqual([]);
    });

    it('stores the reply when its final save fails for want of a connection, then works (tried again)', async () => {
      const { repo, model, logger, reply } = setup();
      model.script({ type: 'text', delta: 'Lisbon.' });
      repo.failTimes('finishReply', 2, new Error('timeout exceeded when trying to connect'));
      const { events, row } = await reply();
      expect(names(events).slice(-2)).toEqual(['assistant_message', 'done']);
      expect(row).toMatchObject({ status: 'complete', content: 'Lisbon.' });
      expect(repo.outbox).toHaveLength(1);
      expect(logger.said('warn').filter((m) => m === 'A reply write failed; it is tried again')).toHaveLength(2);
      expect(logger.said('error')).toEqual([]);
    });

    it("keeps renewing the reply's lease until its final save is over, then stops", async () => {
      const { repo, model, leases, reply } = setup();
      model.script({ type: 'text', delta: 'Lisbon.' });
      const renewedWhileSaving: string[][] = [];
      const finish = repo.finishReply.bind(repo);
      repo.finishReply = async (...args) => {
        await leases.renew();
        renewedWhileSaving.push(...repo.renewals);
        return finish(...args);
      };
      const { row } = await reply();
      expect(renewedWhileSaving).toEqual([[row.id]]);
      await leases.renew();
      expect(repo.renewals).toEqual([[row.id]]);
    });

    it('reports the storage failure over a model failure when both happen', async () => {
      const { repo, model, reply } = setup();
      model.script(new LlmError('rate_limited', 'The model is busy right now. Please try again in a moment.'));
      repo.fail('finishReply');
      const { events } = await reply();
      expect(events.filter((e) => e.event === 'error').map((e) => e.data)).toEqual([{ detail: REPLY_NOT_SAVED }]);
    });

    it('stops on request, keeping what came, not as a failure of the model', async () => {
      const { model, logger, reply } = setup();
      let ctx!: ReplyContext;
      model.script({ type: 'text', delta: 'a b ' }, () => ctx.stop.abort(new Error('stopped')), { type: 'text', delta: 'never' });
      const { events, row } = await reply(undefined, undefined, (c) => (ctx = c));
      expect(eventOf(events, 'error')!.data.detail).toBe('The reply was stopped.');
      expect(row).toMatchObject({ status: 'incomplete', content: 'a b ' });
      expect(logger.said('warn')).not.toContain('The model failed');
    });

    it('says why it was aborted, whatever the provider threw meanwhile (a shutdown)', async () => {
      const { model, reply } = setup();
      let ctx!: ReplyContext;
      model.script({ type: 'text', delta: 'Partial' }, () => ctx.stop.abort(new ReplyStopped(SHUTDOWN_DETAIL)), new Error('socket closed'));
      const { events, row } = await reply(undefined, undefined, (c) => (ctx = c));
      expect(eventOf(events, 'error')!.data.detail).toBe(SHUTDOWN_DETAIL);
      expect(row).toMatchObject({ status: 'incomplete', content: 'Partial' });
    });

    it('cuts a model that stays silent too long, keeping what came', async () => {
      const { model, reply } = setup({ config: { LLM_STALL_TIMEOUT_MS: 20 } });
      model.script({ type: 'text', delta: 'Starting' }, 'hang');
      const { events, row } = await reply();
      expect(eventOf(events, 'error')!.data.detail).toBe('The model stopped answering.');
      expect(row).toMatchObject({ status: 'incomplete', content: 'Starting' });
    });

    it('cuts a reply that takes longer than its total limit, even while the model talks', async () => {
      const { model, reply } = setup({ config: { LLM_TOTAL_TIMEOUT_MS: 30 } });
      const slowly = (delta: string) => [() => new Promise<void>((resolve) => setTimeout(resolve, 10)), { type: 'text' as const, delta }];
      model.script(...Array.from({ length: 50 }, (_, i) => slowly(`w${i} `)).flat());
      const { events, row } = await reply();
      expect(eventOf(events, 'error')!.data.detail).toBe('The reply took too long and was cut short.');
      expect(row.status).toBe('incomplete');
      expect(row.content.length).toBeLessThan(50 * 3);
    });

    it('still answers when the conversation was deleted while the reply was written', async () => {
      const { model, repo, logger, reply } = setup();
      model.script(() => void repo.messages.clear(), { type: 'text', delta: 'Too late' });
      const { events } = await reply();
      expect(names(events).slice(-2)).toEqual(['assistant_message', 'done']);
      expect(logger.said('warn')).toContain('The conversation was deleted while its reply was written');
      expect(repo.outbox).toEqual([]);
    });
  });

  describe('checkpoints', () => {
    /** Runs a reply whose model, mid-way, starts saving, writes `delta`, then saves once. */
    const savedMidway = async (s: ReturnType<typeof setup>) => {
      let ctx!: ReplyContext;
      let checkpoints!: ReturnType<CheckpointStep['start']>;
      s.model.script(
        () =>
          void (checkpoints = new CheckpointStep(
            s.repo,
            s.logger,
            s.config,
            new ReplyLeases(s.repo, s.logger, s.config, s.writes),
            s.writes,
          ).start(ctx)),
        { type: 'meta', requestId: 'req-9', model: 'fast' },
        { type: 'text', delta: 'So far' },
        () => {
          checkpoints.tick();
          return checkpoints.stop();
        },
      );
      return s.reply(undefined, undefined, (c) => (ctx = c));
    };

    it('saves what the reply has so far, with its metadata, while it is written', async () => {
      const s = setup();
      const { row } = await savedMidway(s);
      expect(s.repo.checkpoints).toEqual([
        { id: row.id, content: 'So far', metadata: expect.objectContaining({ provider_request_id: 'req-9', model: 'fast' }) },
      ]);
    });

    it('does not fail the reply when a save fails', async () => {
      const s = setup();
      s.repo.fail('checkpointReply');
      const { row } = await savedMidway(s);
      expect(row.status).toBe('complete');
      expect(s.logger.said('warn')).toContain('Could not save the reply so far');
    });
  });
});
