import type { ReplyEvent } from '@app/contracts/chat';
import { CHAT_STOP_SUBJECT } from '@app/contracts/chat';
import { decode, MemoryStore, ServiceLifecycle, Throttler, type Bus } from '@app/platform';
import { lastValueFrom, toArray, type Observable } from 'rxjs';
import { chatEnvSchema, type ChatConfig } from '../config';
import type { ConversationEntity } from '../conversations/conversation.entity';
import { aCaller, aConversation, aMessage } from '../testing/builders';
import { FakeAttachments } from '../testing/attachments.fake';
import { FakeChatRepository } from '../testing/chat-repository.fake';
import { drafted } from '../testing/drafts';
import { FakeModel } from '../testing/model.fake';
import { DailyLimit } from './daily-limit';
import { NOTHING_TO_ANSWER, RepliesService } from './replies.service';
import type { ReplyContext, ReplyGiven } from './reply-context';
import { ReplyDrafts } from './reply-drafts';
import { SHUTDOWN_DETAIL } from './reply-failure';
import { ReplyJobs } from './reply-jobs';
import type { ReplyPipeline } from './reply-pipeline';
import { StopRegistry } from './stop-registry';

const OWNER = aCaller('owner');
const STRANGER = aCaller('stranger');
const refused = (status: number, detail?: string) => expect.objectContaining({ status, ...(detail ? { detail } : {}) });
const collect = (events: Observable<ReplyEvent>) => lastValueFrom(events.pipe(toArray()));

/** The jobs as RepliesService sees them: what it was asked to write and to stop. */
class FakeJobs implements Pick<ReplyJobs, 'write' | 'stop'> {
  readonly written: Omit<ReplyGiven, 'stop'>[] = [];
  readonly stopped: string[] = [];
  async write(given: Omit<ReplyGiven, 'stop'>): Promise<void> {
    this.written.push(given);
    given.emit({ event: 'done', data: {} });
  }
  stop(userMessageId: string): void {
    this.stopped.push(userMessageId);
  }
}

function setup(env: Record<string, string> = {}) {
  const config: ChatConfig = chatEnvSchema.parse({
    CHAT_FAST_MODEL: 'fast',
    CHAT_REASONING_MODEL: 'thinker',
    CHAT_GUEST_DAILY_LIMIT: '3',
    CHAT_USER_DAILY_LIMIT: '5',
    ...env,
  });
  const repo = new FakeChatRepository();
  const attachments = new FakeAttachments();
  const model = new FakeModel();
  const jobs = new FakeJobs();
  const kv = new MemoryStore();
  const personalize = { look: async () => ({ memories: [], showQuery: false }) };
  const replies = new RepliesService(
    repo,
    attachments,
    new DailyLimit(new Throttler(kv), config),
    new ReplyDrafts(repo, model, config),
    jobs,
    personalize,
  );
  const conversation = aConversation({ id: 'chat', userId: 'owner' });
  repo.seed(conversation);
  return { config, repo, attachments, jobs, kv, replies, conversation };
}

/** u1 → a1, the active branch, in `chat`. */
const answered = (repo: FakeChatRepository, conversation: ConversationEntity) => {
  repo.seed(
    aMessage({ id: 'u1', chatId: 'chat', content: 'A' }),
    aMessage({ id: 'a1', chatId: 'chat', sender: 'assistant', previousMessageId: 'u1', content: 'reply A' }),
  );
  conversation.lastActiveMessageId = 'a1';
};

describe('RepliesService', () => {
  describe('send', () => {
    it('stores the message after the active one with its reply row, sends it first, then writes the reply', async () => {
      const { repo, jobs, replies, conversation } = setup();
      answered(repo, conversation);
      const events = await collect(replies.send(OWNER, { chat_id: 'chat', content: 'B' }));
      expect(events.map((e) => e.event)).toEqual(['user_message', 'done']);
      const [job] = jobs.written;
      expect(events[0].data).toMatchObject({
        message_id: job.userMessage.id,
        content: 'B',
        previous_message_id: 'a1',
        sender: 'user',
        author_user_id: 'owner',
      });
      expect(repo.messages.get(job.reply.id)).toMatchObject({
        status: 'streaming',
        previousMessageId: job.userMessage.id,
        sender: 'assistant',
        content: '',
      });
      expect(conversation.lastActiveMessageId).toBe(job.userMessage.id);
      expect(job).toMatchObject({ caller: OWNER, conversation, choice: { model: 'fast', autoSelected: true }, provider: { id: 'openai' } });
    });

    it('starts a new branch after the message given, or from the root with null', async () => {
      const { repo, jobs, replies, conversation } = setup();
      answered(repo, conversation);
      await collect(replies.send(OWNER, { chat_id: 'chat', content: 'A, again', previous_message_id: 'u1' }));
      await collect(replies.send(OWNER, { chat_id: 'chat', content: 'Fresh start', previous_message_id: null }));
      expect(jobs.written.map((j) => j.userMessage.previousMessageId)).toEqual(['u1', null]);
    });

    it("refuses another user's conversation, or a previous message from elsewhere, with 404 and stores nothing", async () => {
      const { repo, jobs, replies, conversation } = setup();
      answered(repo, conversation);
      repo.seed(
        aConversation({ id: 'other', userId: 'owner' }),
        aMessage({ id: 'elsewhere', chatId: 'other' }),
        aMessage({ id: 'theirs', chatId: 'chat', userId: 'stranger' }),
      );
      const before = repo.messages.size;
      await expect(collect(replies.send(STRANGER, { chat_id: 'chat', content: 'hi' }))).rejects.toEqual(
        refused(404, 'Conversation not found'),
      );
      for (const previous of ['elsewhere', 'theirs', 'missing']) {
        await expect(collect(replies.send(OWNER, { chat_id: 'chat', content: 'hi', previous_message_id: previous }))).rejects.toEqual(
          refused(404, 'Message not found'),
        );
      }
      expect(repo.messages.size).toBe(before);
      expect(jobs.written).toEqual([]);
    });

    it("keeps the sender's files with the types found in their bytes, and refuses anyone else's (404)", async () => {
      const { attachments, jobs, repo, replies } = setup();
      attachments.files.set('leaf', 'image/png');
      await collect(
        replies.send(OWNER, { chat_id: 'chat', content: 'Look', files: [{ object_store_object_id: 'leaf', mime_type: 'text/plain' }] }),
      );
      expect(jobs.written[0].userMessage.metadata).toEqual({ files: [{ object_store_object_id: 'leaf', mime_type: 'image/png' }] });
      const before = repo.messages.size;
      await expect(
        collect(
          replies.send(OWNER, {
            chat_id: 'chat',
            content: 'Mine now',
            files: [{ object_store_object_id: 'not-mine', mime_type: 'image/png' }],
          }),
        ),
      ).rejects.toEqual(refused(404, 'File not found: not-mine'));
      expect(repo.messages.size).toBe(before);
    });

    it('creates nothing for an account deleted meanwhile (401)', async () => {
      const { repo, jobs, replies } = setup();
      repo.forgotten.add('owner');
      await expect(collect(replies.send(OWNER, { chat_id: 'chat', content: 'Late' }))).rejects.toEqual(refused(401));
      expect(repo.messages.size).toBe(0);
      expect(jobs.written).toEqual([]);
    });
  });

  describe('the daily limit', () => {
    it("refuses a guest's message past the guest limit with 429, before storing anything", async () => {
      const { repo, jobs, replies } = setup();
      for (let i = 0; i < 3; i++) await collect(replies.send(OWNER, { chat_id: 'chat', content: `m${i}` }));
      const stored = repo.messages.size;
      await expect(collect(replies.send(OWNER, { chat_id: 'chat', content: 'one more' }))).rejects.toEqual(
        refused(429, "You have reached today's limit of 3 messages for guests. Sign in to keep chatting."),
      );
      expect(repo.messages.size).toBe(stored);
      expect(jobs.written).toHaveLength(3);
    });

    it('gives an account its own, higher limit, and counts regenerations too', async () => {
      const { repo, replies, conversation } = setup();
      answered(repo, conversation);
      const member = aCaller('owner', false);
      for (let i = 0; i < 4; i++) await collect(replies.send(member, { chat_id: 'chat', content: `m${i}` }));
      await collect(replies.regenerate(member, { message_id: 'a1' }));
      await expect(collect(replies.regenerate(member, { message_id: 'a1' }))).rejects.toEqual(
        refused(429, "You have reached today's limit of 5 messages. It resets at midnight UTC."),
      );
    });

    it('does not count a message refused with 404, and says 404 rather than 429 or a file refusal for a conversation not theirs', async () => {
      const { repo, jobs, replies, attachments } = setup();
      repo.seed(aMessage({ id: 'elsewhere', chatId: 'other-chat' }));
      // Refused after the limit was taken (the statement found nothing): given back.
      for (let i = 0; i < 5; i++) {
        await expect(collect(replies.send(STRANGER, { chat_id: 'chat', content: 'not mine' }))).rejects.toEqual(
          refused(404, 'Conversation not found'),
        );
        await expect(
          collect(replies.send(OWNER, { chat_id: 'chat', content: 'after elsewhere', previous_message_id: 'elsewhere' })),
        ).rejects.toEqual(refused(404, 'Message not found'));
      }
      for (let i = 0; i < 3; i++) await collect(replies.send(OWNER, { chat_id: 'chat', content: `m${i}` }));
      expect(jobs.written).toHaveLength(3);
      // At the limit, or with a file not theirs: the conversation's 404 still comes first.
      await expect(collect(replies.send(OWNER, { chat_id: 'missing', content: 'one more' }))).rejects.toEqual(
        refused(404, 'Conversation not found'),
      );
      await expect(
        collect(replies.send(OWNER, { chat_id: 'chat', content: 'one more', previous_message_id: 'elsewhere' })),
      ).rejects.toEqual(refused(404, 'Message not found'));
      await expect(collect(replies.send(OWNER, { chat_id: 'chat', content: 'one more' }))).rejects.toEqual(refused(429));
      attachments.files.clear();
      await expect(
        collect(
          replies.send(STRANGER, {
            chat_id: 'chat',
            content: 'x',
            files: [{ object_store_object_id: 'not-mine', mime_type: 'image/png' }],
          }),
        ),
      ).rejects.toEqual(refused(404, 'Conversation not found'));
    });

    it('counts per user and per UTC day', async () => {
      const { kv, config } = setup();
      const limit = new DailyLimit(new Throttler(kv), config);
      for (let i = 0; i < 3; i++) await limit.take(OWNER, new Date('2026-03-01T23:59:00Z'));
      await expect(limit.take(OWNER, new Date('2026-03-01T23:59:59Z'))).rejects.toEqual(refused(429));
      await expect(limit.take(OWNER, new Date('2026-03-02T00:00:01Z'))).resolves.toBeUndefined();
      await expect(limit.take(STRANGER, new Date('2026-03-01T23:59:59Z'))).resolves.toBeUndefined();
    });

    it('says when to try again: the seconds to the next UTC midnight (Retry-After)', async () => {
      const { kv, config } = setup();
      const limit = new DailyLimit(new Throttler(kv), config);
      for (let i = 0; i < 3; i++) await limit.take(OWNER, new Date('2026-03-01T23:00:00Z'));
      await expect(limit.take(OWNER, new Date('2026-03-01T23:59:00Z'))).rejects.toMatchObject({
        status: 429,
        retryAfterSeconds: 60,
        toShape: expect.any(Function),
      });
      const error = (await limit.take(OWNER, new Date('2026-03-01T23:59:00Z')).catch((e: unknown) => e)) as { toShape(): unknown };
      expect(error.toShape()).toMatchObject({ status: 429, retry_after: 60 });
    });
  });

  describe('regenerate', () => {
    it('answers the user message of a reply again, as a sibling of that reply', async () => {
      const { repo, jobs, replies, conversation } = setup();
      answered(repo, conversation);
      const events = await collect(replies.regenerate(OWNER, { message_id: 'a1' }));
      expect(events[0]).toMatchObject({ event: 'user_message', data: { message_id: 'u1' } });
      const [job] = jobs.written;
      expect(job.userMessage.id).toBe('u1');
      expect(repo.messages.get(job.reply.id)).toMatchObject({ status: 'streaming', previousMessageId: 'u1' });
    });

    it('answers a user message given itself', async () => {
      const { repo, jobs, replies, conversation } = setup();
      answered(repo, conversation);
      await collect(replies.regenerate(OWNER, { message_id: 'u1' }));
      expect(jobs.written[0].userMessage.id).toBe('u1');
    });

    it('refuses a reply with no user message before it (400), and what the caller cannot see (404)', async () => {
      const { repo, replies } = setup();
      repo.seed(
        aMessage({ id: 'orphan', chatId: 'chat', sender: 'assistant', previousMessageId: null }),
        aMessage({ id: 'after-reply', chatId: 'chat', sender: 'assistant', previousMessageId: 'orphan' }),
        aMessage({ id: 'theirs', chatId: 'chat', userId: 'stranger' }),
        aMessage({ id: 'writing', chatId: 'chat', sender: 'assistant', status: 'streaming' }),
      );
      await expect(collect(replies.regenerate(OWNER, { message_id: 'orphan' }))).rejects.toEqual(refused(400, NOTHING_TO_ANSWER));
      await expect(collect(replies.regenerate(OWNER, { message_id: 'after-reply' }))).rejects.toEqual(refused(400, NOTHING_TO_ANSWER));
      await expect(collect(replies.regenerate(OWNER, { message_id: 'theirs' }))).rejects.toEqual(refused(404, 'Message not found'));
      await expect(collect(replies.regenerate(OWNER, { message_id: 'writing' }))).rejects.toEqual(refused(404, 'Message not found'));
    });
  });

  describe('stop', () => {
    it('asks the replicas to stop the reply to a message of the caller', async () => {
      const { repo, jobs, replies, conversation } = setup();
      answered(repo, conversation);
      expect(await replies.stop(OWNER, { message_id: 'u1' })).toEqual({ stopped: true });
      expect(jobs.stopped).toEqual(['u1']);
    });

    it("is 404 for another user's message, and asks nothing", async () => {
      const { repo, jobs, replies, conversation } = setup();
      answered(repo, conversation);
      await expect(replies.stop(STRANGER, { message_id: 'u1' })).rejects.toEqual(refused(404, 'Message not found'));
      expect(jobs.stopped).toEqual([]);
    });
  });
});

describe('ReplyDrafts', () => {
  const draftWith = (env: Record<string, string>, model = new FakeModel()) => {
    const config = chatEnvSchema.parse({
      CHAT_FAST_MODEL: 'fast',
      CHAT_REASONING_MODEL: 'thinker',
      CHAT_EXPERT_ID: 'ada',
      CHAT_EXPERT_NAME: 'Ada',
      CHAT_REPLY_LEASE_MS: '5000',
      ...env,
    });
    const repo = new FakeChatRepository();
    const conversation = aConversation({ id: 'chat' });
    repo.seed(conversation);
    return { repo, drafts: new ReplyDrafts(repo, model, config), conversation };
  };

  it("starts the reply's row signed by the persona, leased, saying from the first moment which model will answer", async () => {
    const { repo, drafts, conversation } = draftWith({});
    const before = Date.now();
    const draft = await drafted(drafts, conversation, { content: 'Prove it', previousId: null });
    const row = repo.messages.get(draft.reply.id)!;
    expect(row).toMatchObject({ status: 'streaming', expertId: 'ada', expertName: 'Ada', authorUserId: null, content: '' });
    expect(row.leaseExpiresAt!.getTime()).toBeGreaterThanOrEqual(before + 5_000);
    expect(row.metadata).toEqual({
      model: 'thinker',
      provider: 'openai',
      provider_label: 'OpenAI',
      offline: false,
      provider_request_id: null,
      auto_selected: true,
      memory_ids: [],
      files: [],
    });
    expect(draft.choice).toEqual({ model: 'thinker', reasoning: true, autoSelected: true });
  });

  it('lets the offline model choose nothing', async () => {
    const { drafts, conversation } = draftWith(
      {},
      new FakeModel({ id: 'offline', label: 'Offline model', offline: true, fixedModel: 'offline' }),
    );
    const draft = await drafted(drafts, conversation, { content: 'Prove it', previousId: null });
    expect(draft.choice).toEqual({ model: 'offline', reasoning: false, autoSelected: false });
    expect(draft.reply.metadata).toMatchObject({ provider: 'offline', offline: true, auto_selected: false });
  });
});

describe('ReplyJobs', () => {
  /** A bus that delivers what is published to this process's subscribers (one replica). */
  class LoopbackBus implements Pick<Bus, 'subscribe' | 'publish'> {
    private readonly handlers = new Map<string, ((message: { data: Uint8Array; headers: Record<string, string> }) => void)[]>();
    readonly published: { subject: string; data: unknown }[] = [];
    async subscribe(subject: string, handler: (message: { data: Uint8Array; headers: Record<string, string> }) => void) {
      this.handlers.set(subject, [...(this.handlers.get(subject) ?? []), handler]);
      return { close: async () => void this.handlers.delete(subject) };
    }
    publish(subject: string, data: Uint8Array): void {
      this.published.push({ subject, data: decode(data) });
      for (const handler of this.handlers.get(subject) ?? []) handler({ data, headers: {} });
    }
  }

  /** A pipeline that writes until it is aborted, and remembers why it was. */
  class UntilAborted implements Pick<ReplyPipeline, 'run'> {
    readonly ended: unknown[] = [];
    readonly started: ReplyContext[] = [];
    async run(ctx: ReplyContext): Promise<void> {
      this.started.push(ctx);
      await new Promise((resolve) => ctx.stop.signal.addEventListener('abort', resolve, { once: true }));
      this.ended.push(ctx.stop.signal.reason);
    }
  }

  const setupJobs = async () => {
    const bus = new LoopbackBus();
    const stops = new StopRegistry(bus);
    await stops.onApplicationBootstrap();
    const pipeline = new UntilAborted();
    const lifecycle = new ServiceLifecycle();
    const jobs = new ReplyJobs(stops, pipeline as unknown as ReplyPipeline, lifecycle);
    const repo = new FakeChatRepository();
    const conversation = aConversation({ id: 'chat' });
    const given = (id: string): Omit<ReplyGiven, 'stop'> => ({
      caller: OWNER,
      conversation,
      userMessage: aMessage({ id: `user-${id}` }),
      reply: aMessage({ id: `reply-${id}`, sender: 'assistant', status: 'streaming' }),
      choice: { model: 'fast', reasoning: false, autoSelected: true },
      provider: { id: 'openai', label: 'OpenAI', offline: false },
      emit: () => undefined,
    });
    const started = async (count: number) => {
      while (pipeline.started.length < count) await new Promise((resolve) => setImmediate(resolve));
    };
    return { bus, stops, pipeline, lifecycle, jobs, repo, given, started };
  };

  it('stops the reply to a user message when any replica is asked to (the stop is broadcast)', async () => {
    const { bus, pipeline, jobs, given, started } = await setupJobs();
    const first = jobs.write(given('1'));
    const second = jobs.write(given('2'));
    await started(2);
    jobs.stop('user-1');
    await first;
    expect(bus.published).toEqual([{ subject: CHAT_STOP_SUBJECT, data: { message_id: 'user-1' } }]);
    expect(pipeline.started[1].stop.signal.aborted).toBe(false);
    pipeline.started[1].stop.abort();
    await second;
  });

  it('cuts every reply short at the end of the grace period, saying the service restarted, and the shutdown waits for them', async () => {
    const { pipeline, lifecycle, jobs, given, started } = await setupJobs();
    const writing = [jobs.write(given('1')), jobs.write(given('2'))];
    await started(2);
    lifecycle.cutOff();
    await jobs.onApplicationShutdown();
    expect(pipeline.ended.map((reason) => (reason as { detail?: string }).detail)).toEqual([SHUTDOWN_DETAIL, SHUTDOWN_DETAIL]);
    await Promise.all(writing);
  });

  it('forgets a reply once it is written: a later stop or shutdown has nothing to do', async () => {
    const { pipeline, jobs, given, started, lifecycle } = await setupJobs();
    const writing = jobs.write(given('1'));
    await started(1);
    pipeline.started[0].stop.abort();
    await writing;
    jobs.stop('user-1');
    lifecycle.cutOff();
    await jobs.onApplicationShutdown();
    expect(pipeline.ended).toHaveLength(1);
  });
});
