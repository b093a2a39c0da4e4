import { ACCOUNT_DELETED, DomainError, type PublicOf } from '@app/platform';
import type { ChatRepository, ExchangeCompleted, StartedExchange } from '../conversations/chat.repository';
import { ConversationEntity } from '../conversations/conversation.entity';
import { MessageEntity } from '../conversations/message.entity';
import { ShareEntity } from '../conversations/share.entity';
import type { TreeNode } from '../conversations/message-tree';
import { tick } from './builders';

/**
 * The chat schema in memory, for unit tests (not part of the build): the public face of
 * ChatRepository with the same rules (reads scoped by owner, replies being written hidden from
 * reads, nothing created for a deleted account), the events it would have enqueued, and a way to
 * make the database fail.
 */

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

  async messageTree(userId: string, chatId: string): Promise<{ nodes: TreeNode[]; lastActiveMessageId: string | null }> {
    this.check('messageTree');
    const live = (m: MessageEntity) => (m.leaseExpiresAt?.getTime() ?? 0) > Date.now();
    const nodes = this.sorted((m) => m.chatId === chatId && m.userId === userId && (m.status !== 'streaming' || live(m))).map((m) => ({
      id: m.id,
      previousMessageId: m.previousMessageId,
      sender: m.sender,
      hidden: m.hidden,
      createdAt: m.createdAt,
      ...(m.status === 'streaming' ? { writing: { content: m.content } } : {}),
    }));
    const conversation = this.conversations.get(chatId);
    return { nodes, lastActiveMessageId: nodes.length && conversation?.userId === userId ? conversation.lastActiveMessageId : null };
  }

  async anyHasFile(userId: string, chatId: string, ids: string[], objectId: string): Promise<boolean> {
    this.check('anyHasFile');
    return ids.some((id) => {
      const m = this.messages.get(id);
      const files = (m?.metadata.files ?? []) as { object_store_object_id?: string }[];
      return (
        !!m &&
        m.chatId === chatId &&
        m.userId === userId &&
        m.status !== 'streaming' &&
        files.some((f) => f.object_store_object_id === objectId)
      );
    });
  }

  async messagesIn(userId: string, chatId: string, ids: string[]): Promise<MessageEntity[]> {
    this.check('messagesIn');
    return ids.flatMap((id) => {
      const m = this.messages.get(id);
      return m && m.chatId === chatId && m.userId === userId && m.status !== 'streaming' ? [m] : [];
    });
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
    leaseMs: number,
    options: { follow?: boolean } = {},
  ): Promise<StartedExchange> {
    this.check('addMessageWithReply');
    const conversation = this.conversations.get(message.chatId);
    if (conversation?.userId !== message.userId) return { missing: 'conversation' };
    if (options.follow) message.previousMessageId = conversation.lastActiveMessageId;
    else if (message.previousMessageId) {
      const previous = this.messages.get(message.previousMessageId);
      if (previous?.userId !== message.userId || previous.chatId !== conversation.id || previous.status === 'streaming')
        return { missing: 'previous message' };
    }
    this.refuseForgotten(message.userId);
    const history = this.sorted((m) => m.chatId === conversation.id && m.status !== 'streaming');
    message.createdAt = tick();
    this.messages.set(message.id, message);
    Object.assign(conversation, { lastActiveMessageId: message.id, lastMessageAt: message.createdAt });
    return { conversation, message, reply: this.insertReply(reply, leaseMs), history: [...history, message] };
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
