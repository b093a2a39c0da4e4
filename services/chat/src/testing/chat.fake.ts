import type { Caller, RequestOf, ResponseOf, RpcContract } from '@app/contracts';
import type { FileReference } from '@app/contracts/chat';
import {
  ACCOUNT_DELETED,
  BusUnavailableError,
  DomainError,
  RpcCallError,
  type AppLogger,
  type Bus,
  type CallOptions,
  type RpcClient,
  type PublicOf,
} from '@app/platform';
import type { ChatRepository, ExchangeCompleted } from '../conversations/chat.repository';
import type { LlmAttachment, LlmEvent, LlmProvider, LlmRequest, ProviderDescriptor } from '../llm/llm-provider';
import type { AttachmentsService } from '../replies/attachments.service';
import { ReplyWrites } from '../replies/reply-writes';
import { ConversationEntity } from '../conversations/conversation.entity';
import { MessageEntity } from '../messages/message.entity';
import { ShareEntity } from '../shares/share.entity';

/**
 * The chat schema in memory, for unit tests (not part of the build): the public face of
 * ChatRepository with the same rules (reads scoped by owner, replies being written hidden from
 * reads, nothing created for a deleted account), the events it would have enqueued, and a way to
 * make the database fail.
 */

let clock = Date.parse('2026-01-01T00:00:00Z');
/** A strictly increasing time, so that creation order is the order things were made. */
export const tick = () => new Date((clock += 1_000));

export function aConversation(fields: Partial<ConversationEntity> = {}): ConversationEntity {
  return Object.assign(new ConversationEntity(), {
    id: `chat-${clock}`,
    userId: 'owner',
    title: null,
    lastMessageAt: null,
    lastActiveMessageId: null,
    isCommercial: false,
    isShared: false,
    expiresAt: null,
    projectId: null,
    createdAt: tick(),
    updatedAt: new Date(clock),
    ...fields,
  });
}

export function aMessage(fields: Partial<MessageEntity> = {}): MessageEntity {
  return Object.assign(new MessageEntity(), {
    id: `message-${clock}`,
    chatId: 'chat',
    userId: 'owner',
    sender: 'user',
    authorUserId: null,
    expertId: null,
    expertName: null,
    content: 'Hello',
    feedback: null,
    hidden: false,
    previousMessageId: null,
    metadata: {},
    status: 'complete',
    leaseExpiresAt: null,
    createdAt: tick(),
    ...fields,
  });
}

type Failing = keyof ChatRepository;

export class FakeChatRepository implements PublicOf<ChatRepository> {
  readonly conversations = new Map<string, ConversationEntity>();
  readonly messages = new Map<string, MessageEntity>();
  readonly shares = new Map<string, ShareEntity>();
  /** Events enqueued in the outbox, with their ids. */
  readonly outbox: { eventId: string; payload: ExchangeCompleted }[] = [];
  /** Ids of the events applied, by consumer (the processed_event table). */
  readonly applied = new Set<string>();
  /** Accounts deleted: nothing may be created for them. */
  readonly forgotten = new Set<string>();
  /** Every checkpoint written, in order. */
  readonly checkpoints: { id: string; content: string; metadata: Record<string, unknown> }[] = [];
  /** The ids each `renewLeases` call named, in order. */
  readonly renewals: string[][] = [];
  private readonly failures = new Map<Failing, Error>();
  /** Calls of a method left to fail (`failTimes`) before it works again. */
  private readonly failuresLeft = new Map<Failing, number>();

  /** The next calls of `method` fail with `error` (a database gone away) until `heal`. */
  fail(method: Failing, error: Error = new Error('Connection terminated')): this {
    this.failures.set(method, error);
    return this;
  }

  /** The next `times` calls of `method` fail with `error`, then it works again. */
  failTimes(method: Failing, times: number, error: Error): this {
    this.failuresLeft.set(method, times);
    return this.fail(method, error);
  }

  heal(method: Failing): void {
    this.failures.delete(method);
  }

  private check(method: Failing): void {
    const failure = this.failures.get(method);
    if (!failure) return;
    const left = this.failuresLeft.get(method);
    if (left !== undefined) {
      if (left <= 1) {
        this.failuresLeft.delete(method);
        this.heal(method);
      } else this.failuresLeft.set(method, left - 1);
    }
    throw failure;
  }

  /** Puts rows in place as they would be stored. */
  seed(...rows: (ConversationEntity | MessageEntity)[]): this {
    for (const row of rows) {
      if (row instanceof ConversationEntity) this.conversations.set(row.id, row);
      else this.messages.set(row.id, row);
    }
    return this;
  }

  async listConversations(userId: string): Promise<ConversationEntity[]> {
    this.check('listConversations');
    const time = (d: Date | null) => d?.getTime() ?? -Infinity;
    return [...this.conversations.values()]
      .filter((c) => c.userId === userId)
      .sort((a, b) => time(b.lastMessageAt) - time(a.lastMessageAt) || b.createdAt.getTime() - a.createdAt.getTime());
  }

  async findConversation(userId: string, id: string): Promise<ConversationEntity | null> {
    this.check('findConversation');
    const conversation = this.conversations.get(id);
    return conversation?.userId === userId ? conversation : null;
  }

  async saveConversation(conversation: ConversationEntity): Promise<ConversationEntity> {
    this.check('saveConversation');
    this.conversations.set(conversation.id, conversation);
    return conversation;
  }

  async createConversation(conversation: ConversationEntity): Promise<ConversationEntity> {
    this.check('createConversation');
    this.refuseForgotten(conversation.userId);
    conversation.createdAt ??= tick();
    this.conversations.set(conversation.id, conversation);
    return conversation;
  }

  async isUntitled(userId: string, chatId: string): Promise<boolean> {
    this.check('isUntitled');
    const conversation = this.conversations.get(chatId);
    return conversation?.userId === userId && conversation.title === null;
  }

  async titleOnce(eventId: string, userId: string, chatId: string, title: string): Promise<boolean> {
    this.check('titleOnce');
    if (this.applied.has(`chat-title/${eventId}`)) return false;
    this.applied.add(`chat-title/${eventId}`);
    const conversation = this.conversations.get(chatId);
    if (conversation?.userId !== userId || conversation.title !== null) return false;
    conversation.title = title;
    return true;
  }

  newConversation(
    fields: Pick<ConversationEntity, 'id' | 'userId' | 'title'> & {
      isShared?: boolean;
      expiresAt?: Date | null;
      projectId?: string | null;
    },
  ): ConversationEntity {
    return Object.assign(new ConversationEntity(), {
      isShared: false,
      expiresAt: null,
      projectId: null,
      ...fields,
      lastMessageAt: null,
      lastActiveMessageId: null,
      isCommercial: false,
    });
  }

  async deleteExpiredConversations(now = new Date()): Promise<number> {
    this.check('deleteExpiredConversations');
    const expired = [...this.conversations.values()].filter((c) => c.expiresAt && c.expiresAt < now);
    for (const c of expired) await this.deleteConversation(c.userId, c.id);
    return expired.length;
  }

  async deleteConversation(userId: string, id: string): Promise<boolean> {
    this.check('deleteConversation');
    if (this.conversations.get(id)?.userId !== userId) return false;
    this.conversations.delete(id);
    for (const [key, message] of this.messages) if (message.chatId === id) this.messages.delete(key);
    for (const [key, share] of this.shares) if (share.chatId === id) this.shares.delete(key);
    return true;
  }

  async chatOfMessage(userId: string, id: string): Promise<string | null> {
    this.check('chatOfMessage');
    const message = this.messages.get(id);
    return message && message.userId === userId ? message.chatId : null;
  }

  async findMessage(userId: string, id: string): Promise<MessageEntity | null> {
    this.check('findMessage');
    const message = this.messages.get(id);
    return message && message.userId === userId && message.status !== 'streaming' ? message : null;
  }

  async chatMessages(chatId: string): Promise<MessageEntity[]> {
    this.check('chatMessages');
    return this.sorted((m) => m.chatId === chatId && m.status !== 'streaming');
  }

  async visibleMessages(userId: string, chatIds?: string[]): Promise<MessageEntity[]> {
    this.check('visibleMessages');
    return this.sorted((m) => m.userId === userId && !m.hidden && m.status !== 'streaming' && (!chatIds || chatIds.includes(m.chatId)));
  }

  newMessage(fields: Parameters<ChatRepository['newMessage']>[0]): MessageEntity {
    return Object.assign(new MessageEntity(), { feedback: null, hidden: false, status: 'complete', leaseExpiresAt: null, ...fields });
  }

  async saveMessage(message: MessageEntity): Promise<MessageEntity> {
    this.check('saveMessage');
    this.messages.set(message.id, message);
    return message;
  }

  async startReply(reply: MessageEntity, leaseMs: number): Promise<MessageEntity> {
    this.check('startReply');
    return this.insertReply(reply, leaseMs);
  }

  async checkpointReply(id: string, content: string, metadata: Record<string, unknown>, leaseMs: number): Promise<void> {
    this.check('checkpointReply');
    const row = this.messages.get(id);
    if (row?.status !== 'streaming') return;
    Object.assign(row, { content, metadata, leaseExpiresAt: new Date(Date.now() + leaseMs) });
    this.checkpoints.push({ id, content, metadata });
  }

  async renewLeases(ids: string[], leaseMs: number): Promise<void> {
    this.check('renewLeases');
    this.renewals.push([...ids]);
    for (const id of ids) {
      const row = this.messages.get(id);
      if (row?.status === 'streaming') row.leaseExpiresAt = new Date(Date.now() + leaseMs);
    }
  }

  async finishReply(reply: MessageEntity, conversationId: string, exchange: ExchangeCompleted | null): Promise<boolean> {
    this.check('finishReply');
    const row = this.messages.get(reply.id);
    if (!row) return false;
    Object.assign(row, { content: reply.content, status: reply.status, metadata: reply.metadata, leaseExpiresAt: null });
    const conversation = this.conversations.get(conversationId);
    if (conversation) Object.assign(conversation, { lastActiveMessageId: reply.id, lastMessageAt: tick() });
    if (exchange) this.outbox.push({ eventId: `exchange:${reply.id}`, payload: exchange });
    return true;
  }

  async addMessageWithReply(
    message: MessageEntity,
    reply: MessageEntity,
    conversationId: string,
    leaseMs: number,
  ): Promise<{ message: MessageEntity; reply: MessageEntity }> {
    this.check('addMessageWithReply');
    this.refuseForgotten(message.userId);
    message.createdAt = tick();
    this.messages.set(message.id, message);
    const conversation = this.conversations.get(conversationId);
    if (conversation) Object.assign(conversation, { lastActiveMessageId: message.id, lastMessageAt: message.createdAt });
    return { message, reply: this.insertReply(reply, leaseMs) };
  }

  async recoverAbandonedReplies(): Promise<number> {
    this.check('recoverAbandonedReplies');
    let recovered = 0;
    for (const row of this.messages.values()) {
      if (row.status !== 'streaming' || !row.leaseExpiresAt || row.leaseExpiresAt.getTime() >= Date.now()) continue;
      Object.assign(row, { status: 'incomplete', leaseExpiresAt: null, metadata: { ...row.metadata, incomplete: true } });
      recovered++;
    }
    return recovered;
  }

  async findShare(id: string): Promise<ShareEntity | null> {
    this.check('findShare');
    const share = this.shares.get(id);
    return share && !share.revokedAt ? share : null;
  }

  async activeShare(userId: string, chatId: string): Promise<ShareEntity | null> {
    this.check('activeShare');
    return [...this.shares.values()].find((s) => s.userId === userId && s.chatId === chatId && !s.revokedAt) ?? null;
  }

  async insertShare(share: Pick<ShareEntity, 'id' | 'chatId' | 'userId'>): Promise<ShareEntity> {
    this.check('insertShare');
    const row = Object.assign(new ShareEntity(), { ...share, revokedAt: null, createdAt: tick() });
    this.shares.set(row.id, row);
    return row;
  }

  async revokeShares(userId: string, chatId: string): Promise<number> {
    this.check('revokeShares');
    let revoked = 0;
    for (const share of this.shares.values()) {
      if (share.userId === userId && share.chatId === chatId && !share.revokedAt) {
        share.revokedAt = tick();
        revoked++;
      }
    }
    return revoked;
  }

  private insertReply(reply: MessageEntity, leaseMs: number): MessageEntity {
    const row = Object.assign(new MessageEntity(), {
      ...reply,
      status: 'streaming',
      leaseExpiresAt: new Date(Date.now() + leaseMs),
      createdAt: tick(),
    });
    this.messages.set(row.id, row);
    return Object.assign(new MessageEntity(), row);
  }

  private refuseForgotten(userId: string): void {
    if (this.forgotten.has(userId)) throw DomainError.unauthorized(ACCOUNT_DELETED);
  }

  private sorted(keep: (m: MessageEntity) => boolean): MessageEntity[] {
    return [...this.messages.values()].filter(keep).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  }
}

/** A caller as the gateway sets it. */
export function aCaller(user_id = 'owner', is_anon = true): Caller {
  return { user_id, is_anon, session_id: 'session', request_id: 'request' } as Caller;
}

/** A request to a model: one user turn, no tools, never aborted unless `overrides` brings a signal. */
export function anLlmRequest(overrides: Partial<LlmRequest> = {}): LlmRequest {
  return {
    model: 'fast',
    system: 'Be brief.',
    turns: [{ role: 'user', content: 'Hi' }],
    reasoning: false,
    webSearch: false,
    imageGeneration: false,
    signal: new AbortController().signal,
    ...overrides,
  };
}

/** Every event a model's stream yields, to its end. */
export async function collect(stream: AsyncIterable<LlmEvent>): Promise<LlmEvent[]> {
  const events: LlmEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** The other services as the chat reaches them: answers by subject, and a record of every call. */
export class FakeRpc implements Pick<RpcClient, 'call'> {
  readonly calls: { subject: string; data: unknown; caller: Caller; timeoutMs?: number }[] = [];
  private readonly answers = new Map<string, (data: unknown) => unknown>();

  /** How a subject answers (it may throw); a subject without an answer fails as nobody answering (503). */
  answer<C extends RpcContract>(contract: C, answer: (data: RequestOf<C>) => ResponseOf<C> | Promise<ResponseOf<C>>): this {
    this.answers.set(contract.subject, answer as (data: unknown) => unknown);
    return this;
  }

  async call<C extends RpcContract>(contract: C, data: RequestOf<C>, caller: Caller, options: CallOptions = {}): Promise<ResponseOf<C>> {
    this.calls.push({ subject: contract.subject, data, caller, timeoutMs: options.timeoutMs });
    const answer = this.answers.get(contract.subject);
    if (!answer) throw new RpcCallError({ status: 503, detail: 'No service answers', code: 'unavailable' }, contract.subject);
    return (await answer(data)) as ResponseOf<C>;
  }

  subjects(): string[] {
    return this.calls.map((c) => c.subject);
  }
}

type BusMessage = { data: Uint8Array; headers: Record<string, string> };

/** The bus's plain publish and subscribe, as every replica hears them, and a connection that can be lost. */
export class FakeBroadcastBus implements Pick<Bus, 'subscribe' | 'publish' | 'onConnectionLost'> {
  private readonly handlers = new Map<string, Set<(message: BusMessage) => void>>();
  private readonly lossListeners = new Set<(error: BusUnavailableError) => void>();

  async subscribe(subject: string, handler: (message: BusMessage) => void) {
    const handlers = this.handlers.get(subject) ?? this.handlers.set(subject, new Set()).get(subject)!;
    handlers.add(handler);
    return { close: async () => void handlers.delete(handler) };
  }

  publish(subject: string, data: Uint8Array): void {
    for (const handler of this.handlers.get(subject) ?? []) handler({ data, headers: {} });
  }

  onConnectionLost(listener: (error: BusUnavailableError) => void): () => void {
    this.lossListeners.add(listener);
    return () => this.lossListeners.delete(listener);
  }

  loseConnection(): void {
    for (const listener of this.lossListeners) listener(new BusUnavailableError());
  }

  subscribers(subject: string): number {
    return this.handlers.get(subject)?.size ?? 0;
  }
}

/** The files service's side of attachments: files known by id, what the model is shown, images kept. */
export class FakeAttachments implements Pick<AttachmentsService, 'verify' | 'describeOwn' | 'forModel' | 'storeGenerated'> {
  /** The caller's files, by id, with the type found in their bytes. */
  readonly files = new Map<string, string>();
  readonly shownFor: { id: string; files: FileReference[] }[][] = [];
  readonly stored: { base64: string; mimeType: string }[] = [];
  storeFails = false;

  async verify(_caller: Caller, files: FileReference[]): Promise<FileReference[]> {
    return files.map((file) => {
      const type = this.files.get(file.object_store_object_id);
      if (!type) throw DomainError.notFound(`File not found: ${file.object_store_object_id}`);
      return { object_store_object_id: file.object_store_object_id, mime_type: type };
    });
  }

  async describeOwn(_caller: Caller, ids: string[]) {
    return ids.map((id) => {
      const type = this.files.get(id);
      if (!type) throw DomainError.notFound(`File not found: ${id}`);
      return { object_store_object_id: id, mime_type: type, filename: `${id}.file` };
    });
  }

  async forModel(_caller: Caller, messages: { id: string; files: FileReference[] }[]): Promise<Map<string, LlmAttachment[]>> {
    this.shownFor.push(messages);
    return new Map(
      messages
        .filter((m) => m.files.length)
        .map((m) => [
          m.id,
          m.files.map((f): LlmAttachment => ({
            kind: 'image',
            filename: f.object_store_object_id,
            dataUrl: `data:${f.mime_type};base64,AA`,
          })),
        ]),
    );
  }

  async storeGenerated(_caller: Caller, base64: string, mimeType: string): Promise<FileReference> {
    if (this.storeFails) throw new Error('The files service is away');
    this.stored.push({ base64, mimeType });
    return { object_store_object_id: `generated-${this.stored.length}`, mime_type: mimeType };
  }
}

/**
 * One scripted reply of the fake model: events, an error thrown at that point, 'hang' (silent until
 * the request is aborted, then it ends quietly, as providers do), or a function run when reached.
 */
export type ModelStep = LlmEvent | Error | 'hang' | (() => void | Promise<void>);

/** A provider whose replies are scripted; it records what it was asked. */
export class FakeModel implements LlmProvider {
  readonly requests: LlmRequest[] = [];
  readonly completions: Parameters<LlmProvider['complete']>[0][] = [];
  private readonly replies: ModelStep[][] = [];

  constructor(private readonly descriptor: ProviderDescriptor = { id: 'openai', label: 'OpenAI', offline: false }) {}

  describe(): ProviderDescriptor {
    return this.descriptor;
  }

  /** The next reply; without one the model says "OK". */
  script(...steps: ModelStep[]): this {
    this.replies.push(steps);
    return this;
  }

  stream(request: LlmRequest): AsyncIterable<LlmEvent> {
    this.requests.push(request);
    return play(this.replies.shift() ?? [{ type: 'text', delta: 'OK' }], request.signal);
  }

  async complete(request: Parameters<LlmProvider['complete']>[0]): Promise<string> {
    this.completions.push(request);
    return 'A title';
  }
}

async function* play(steps: ModelStep[], signal: AbortSignal): AsyncIterable<LlmEvent> {
  for (const step of steps) {
    if (signal.aborted) return;
    if (step === 'hang') {
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      return;
    }
    if (step instanceof Error) throw step;
    if (typeof step === 'function') await step();
    else yield step;
  }
}

/** A logger that keeps its lines. */
export class FakeLogger implements Pick<AppLogger, 'warn' | 'error' | 'info' | 'debug'> {
  readonly lines: { level: string; message: unknown }[] = [];
  warn(message: unknown): void {
    this.lines.push({ level: 'warn', message });
  }
  error(message: unknown): void {
    this.lines.push({ level: 'error', message });
  }
  info(message: unknown): void {
    this.lines.push({ level: 'info', message });
  }
  debug(message: unknown): void {
    this.lines.push({ level: 'debug', message });
  }
  /** The `msg` of each line at a level. */
  said(level: string): string[] {
    return this.lines
      .filter((l) => l.level === level)
      .map((l) => (typeof l.message === 'object' && l.message && 'msg' in l.message ? String(l.message.msg) : String(l.message)));
  }
}

/** The queue of reply writes (ReplyWrites) of a pool of four, final saves tried `attempts` times. */
export function aReplyWrites(logger: Pick<AppLogger, 'warn'> = new FakeLogger(), attempts = 3): ReplyWrites {
  return new ReplyWrites({ CHAT_REPLY_SAVE_ATTEMPTS: attempts }, { DB_POOL_MAX: 4 }, logger);
}
