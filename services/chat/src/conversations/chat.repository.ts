import { Injectable } from '@nestjs/common';
import { toSafeJson, toSafeText, type PayloadOf } from '@app/contracts';
import { CHAT_EVENTS } from '@app/contracts/chat';
import { ACCOUNT_DELETED, applyOnce, DomainError, lockLivingUser, Outbox } from '@app/platform';
import { DataSource, In, IsNull, Not, QueryFailedError, type EntityManager } from 'typeorm';
import { MessageEntity } from './message.entity';
import { ShareEntity } from './share.entity';
import { ConversationEntity } from './conversation.entity';

export type ExchangeCompleted = PayloadOf<typeof CHAT_EVENTS.exchangeCompleted>;

/** A reply still being written is nobody's to read yet: reads see it once it is stored for good. */
const WRITTEN = Not('streaming' as const);

/** The consumer name under which titling records the exchange events it applied. */
const TITLE_CONSUMER = 'chat-title';

interface ConversationRow {
  id: string;
  user_id: string;
  title: string | null;
  last_message_at: Date | null;
  last_active_message_id: string | null;
  is_commercial: boolean;
  is_shared: boolean;
  expires_at: Date | null;
  project_id: string | null;
  created_at: Date;
  updated_at: Date;
}

interface MessageRow {
  id: string;
  chat_id: string;
  user_id: string;
  sender: string;
  author_user_id: string | null;
  expert_id: string | null;
  expert_name: string | null;
  content: string;
  feedback: MessageEntity['feedback'];
  hidden: boolean;
  previous_message_id: string | null;
  metadata: Record<string, unknown>;
  status: MessageEntity['status'];
  lease_expires_at: Date | null;
  created_at: Date;
}

const MESSAGE_COLUMNS =
  'id, chat_id, user_id, sender, author_user_id, expert_id, expert_name, content, feedback, hidden, previous_message_id, metadata, status, lease_expires_at, created_at';

function messageOf(row: MessageRow): MessageEntity {
  return Object.assign(new MessageEntity(), {
    id: row.id,
    chatId: row.chat_id,
    userId: row.user_id,
    sender: row.sender,
    authorUserId: row.author_user_id,
    expertId: row.expert_id,
    expertName: row.expert_name,
    content: row.content,
    feedback: row.feedback,
    hidden: row.hidden,
    previousMessageId: row.previous_message_id,
    metadata: row.metadata,
    status: row.status,
    leaseExpiresAt: row.lease_expires_at,
    createdAt: row.created_at,
  });
}

/** A message's first seven columns, in the order every INSERT INTO message here lists them. */
const authorship = (m: MessageEntity) => [m.id, m.chatId, m.userId, m.sender, m.authorUserId, m.expertId, m.expertName];

/** A conversation put in a project deleted at that instant (its foreign key refused it): the project is not found. */
function projectGone(error: unknown): never {
  if (error instanceof QueryFailedError && (error.driverError as { code?: string } | undefined)?.code === '23503')
    throw DomainError.notFound('Project not found');
  throw error;
}

/** The only place that touches the chat schema. Every read is scoped by the owner. */
@Injectable()
export class ChatRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: Outbox,
  ) {}

  private get conversations() {
    return this.dataSource.getRepository(ConversationEntity);
  }
  private get messages() {
    return this.dataSource.getRepository(MessageEntity);
  }
  private get shares() {
    return this.dataSource.getRepository(ShareEntity);
  }

  listConversations(userId: string): Promise<ConversationEntity[]> {
    return this.conversations
      .createQueryBuilder('c')
      .where('c.user_id = :userId', { userId })
      .orderBy('c.last_message_at', 'DESC', 'NULLS LAST')
      .addOrderBy('c.created_at', 'DESC')
      .getMany();
  }

  /** On every reply's path: a plain query (TypeORM's find costs more CPU than the round trip). */
  async findConversation(userId: string, id: string): Promise<ConversationEntity | null> {
    const rows: ConversationRow[] = await this.dataSource.query(
      'SELECT id, user_id, title, last_message_at, last_active_message_id, is_commercial, is_shared, expires_at, project_id, created_at, updated_at FROM conversation WHERE id = $1 AND user_id = $2',
      [id, userId],
    );
    const row = rows[0];
    if (!row) return null;
    return this.conversations.create({
      id: row.id,
      userId: row.user_id,
      title: row.title,
      lastMessageAt: row.last_message_at,
      lastActiveMessageId: row.last_active_message_id,
      isCommercial: row.is_commercial,
      isShared: row.is_shared,
      expiresAt: row.expires_at,
      projectId: row.project_id,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    });
  }

  saveConversation(conversation: ConversationEntity): Promise<ConversationEntity> {
    return this.conversations.save(conversation).catch(projectGone);
  }

  /** A new conversation, refused when its owner's account was deleted meanwhile. */
  createConversation(conversation: ConversationEntity): Promise<ConversationEntity> {
    return this.dataSource
      .transaction(async (manager) => {
        await lockLivingUser(manager, conversation.userId);
        return manager.save(ConversationEntity, conversation);
      })
      .catch(projectGone);
  }

  /** Whether the user's conversation exists and has no title. */
  async isUntitled(userId: string, chatId: string): Promise<boolean> {
    return this.conversations.exists({ where: { id: chatId, userId, title: IsNull() } });
  }

  /**
   * Gives an untitled conversation its title, once per event: false when this event was applied
   * already, or the conversation is gone or has a title meanwhile (the user's own wins).
   */
  async titleOnce(eventId: string, userId: string, chatId: string, title: string): Promise<boolean> {
    let titled = false;
    await applyOnce(this.dataSource, TITLE_CONSUMER, eventId, async (manager) => {
      const result = await manager.update(ConversationEntity, { id: chatId, userId, title: IsNull() }, { title: toSafeText(title) });
      titled = (result.affected ?? 0) > 0;
    });
    return titled;
  }

  newConversation(
    fields: Pick<ConversationEntity, 'id' | 'userId' | 'title'> & {
      isShared?: boolean;
      expiresAt?: Date | null;
      projectId?: string | null;
    },
  ): ConversationEntity {
    return this.conversations.create({
      isShared: false,
      expiresAt: null,
      projectId: null,
      ...fields,
      lastMessageAt: null,
      lastActiveMessageId: null,
      isCommercial: false,
    });
  }

  /** Deletes the temporary chats whose time is up (their messages and shares go with them); how many. */
  async deleteExpiredConversations(): Promise<number> {
    // A DELETE answers [rows, affected] through TypeORM's query().
    const [, deleted]: [unknown[], number] = await this.dataSource.query('DELETE FROM conversation WHERE expires_at < now()');
    return deleted;
  }

  async deleteConversation(userId: string, id: string): Promise<boolean> {
    const result = await this.conversations.delete({ id, userId });
    return (result.affected ?? 0) > 0;
  }

  findMessage(userId: string, id: string): Promise<MessageEntity | null> {
    return this.messages.findOne({ where: { id, userId, status: WRITTEN } });
  }

  /** The conversation of one of the user's messages, a reply still being written included; null when not theirs. */
  async chatOfMessage(userId: string, id: string): Promise<string | null> {
    const message = await this.messages.findOne({ where: { id, userId }, select: { id: true, chatId: true } });
    return message?.chatId ?? null;
  }

  /** On every reply's path (the history sent to the model): a plain query, as `findConversation`. */
  async chatMessages(chatId: string): Promise<MessageEntity[]> {
    const rows: MessageRow[] = await this.dataSource.query(
      `SELECT ${MESSAGE_COLUMNS} FROM message WHERE chat_id = $1 AND status <> 'streaming' ORDER BY created_at ASC`,
      [chatId],
    );
    return rows.map(messageOf);
  }

  visibleMessages(userId: string, chatIds?: string[]): Promise<MessageEntity[]> {
    return this.messages.find({
      where: { userId, hidden: false, status: WRITTEN, ...(chatIds ? { chatId: In(chatIds) } : {}) },
      order: { createdAt: 'ASC' },
    });
  }

  newMessage(
    fields: Omit<MessageEntity, 'createdAt' | 'feedback' | 'hidden' | 'status' | 'leaseExpiresAt'> & Partial<Pick<MessageEntity, 'status'>>,
  ): MessageEntity {
    return this.messages.create({ feedback: null, hidden: false, status: 'complete', leaseExpiresAt: null, ...fields });
  }

  saveMessage(message: MessageEntity): Promise<MessageEntity> {
    return this.messages.save(message);
  }

  /**
   * Stores a reply as it starts, `streaming` and leased to this process for `leaseMs` (by the
   * database's clock, which every replica shares). Returns it with its creation time.
   */
  startReply(reply: MessageEntity, leaseMs: number): Promise<MessageEntity> {
    return this.insertReply(this.dataSource.manager, reply, leaseMs);
  }

  private async insertReply(manager: EntityManager, reply: MessageEntity, leaseMs: number): Promise<MessageEntity> {
    const [row]: { created_at: Date }[] = await manager.query(
      // clock_timestamp(): after its user message even when both are written in one transaction.
      `INSERT INTO message (id, chat_id, user_id, sender, author_user_id, expert_id, expert_name, content, previous_message_id, metadata, status, lease_expires_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, 'streaming', clock_timestamp() + make_interval(secs => $11), clock_timestamp())
       RETURNING created_at`,
      [...authorship(reply), toSafeText(reply.content), reply.previousMessageId, toSafeJson(reply.metadata), leaseMs / 1000],
    );
    return this.messages.create({ ...reply, status: 'streaming', createdAt: row.created_at });
  }

  /** What a reply being written has so far, and its lease renewed; nothing once it is no longer `streaming`. */
  async checkpointReply(id: string, content: string, metadata: Record<string, unknown>, leaseMs: number): Promise<void> {
    await this.dataSource.query(
      "UPDATE message SET content = $2, metadata = $3::jsonb, lease_expires_at = now() + make_interval(secs => $4) WHERE id = $1 AND status = 'streaming'",
      [id, toSafeText(content), toSafeJson(metadata), leaseMs / 1000],
    );
  }

  /** Renews the leases of these replies still being written (by this process: see ReplyLeases). */
  async renewLeases(ids: string[], leaseMs: number): Promise<void> {
    if (!ids.length) return;
    await this.dataSource.query(
      "UPDATE message SET lease_expires_at = now() + make_interval(secs => $2) WHERE id = ANY($1::uuid[]) AND status = 'streaming'",
      [ids, leaseMs / 1000],
    );
  }

  /**
   * Writes a finished (or cut) reply over its `streaming` row, moves the conversation to it and, for
   * a complete exchange, enqueues `events.chat.exchange.completed` (one event id per reply), all in
   * one statement (one round trip, atomic as a transaction). False when the row is gone (its
   * conversation or account deleted meanwhile): then nothing is written.
   */
  async finishReply(reply: MessageEntity, conversationId: string, exchange: ExchangeCompleted | null): Promise<boolean> {
    const event = exchange
      ? this.outbox.prepare(
          CHAT_EVENTS.exchangeCompleted,
          { ...exchange, assistant_text: toSafeText(exchange.assistant_text) },
          { eventId: `exchange:${reply.id}` },
        )
      : null;
    const [row]: { written: number }[] = await this.dataSource.query(
      `WITH written AS (
         UPDATE message SET content = $2, status = $3, metadata = $4::jsonb, lease_expires_at = NULL WHERE id = $1 RETURNING id
       ), moved AS (
         UPDATE conversation SET last_active_message_id = $1, last_message_at = clock_timestamp(), updated_at = now()
         FROM written WHERE conversation.id = $5
       )${event ? `, queued AS (${event.insertSql(6, 'written')})` : ''}
       SELECT count(*)::int AS written FROM written`,
      [reply.id, toSafeText(reply.content), reply.status, toSafeJson(reply.metadata), conversationId, ...(event?.params ?? [])],
    );
    const written = (row?.written ?? 0) > 0;
    if (written && event) this.outbox.written();
    return written;
  }

  /**
   * A new user message, the conversation pointing at it and its reply started (`streaming`, see
   * `startReply`), in one statement (one round trip, atomic): there is no instant at which the
   * message has no reply row. Refused (nothing written) when the account was deleted: `living_user`
   * takes the user's lock shared first, as `lockLivingUser` does, and every write selects from it.
   */
  async addMessageWithReply(
    message: MessageEntity,
    reply: MessageEntity,
    conversationId: string,
    leaseMs: number,
  ): Promise<{ message: MessageEntity; reply: MessageEntity }> {
    // The reply's clock_timestamp() is after the message's now().
    const [row]: { alive: boolean; message_at: Date | null; reply_at: Date | null }[] = await this.dataSource.query(
      `WITH living AS (
         SELECT living_user($3::uuid::text) AS alive
       ), added AS (
         INSERT INTO message (id, chat_id, user_id, sender, author_user_id, expert_id, expert_name, content, previous_message_id, metadata, status, created_at)
         SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, now() FROM living WHERE alive
         RETURNING created_at
       ), moved AS (
         UPDATE conversation SET last_active_message_id = $1, last_message_at = added.created_at, updated_at = now()
         FROM added WHERE conversation.id = $12
       ), reply AS (
         INSERT INTO message (id, chat_id, user_id, sender, author_user_id, expert_id, expert_name, content, previous_message_id, metadata, status, lease_expires_at, created_at)
         SELECT $13, $14, $15, $16, $17, $18, $19, $20, $1, $21::jsonb, 'streaming', clock_timestamp() + make_interval(secs => $22), clock_timestamp()
         FROM added
         RETURNING created_at
       )
       SELECT living.alive, added.created_at AS message_at, reply.created_at AS reply_at
       FROM living LEFT JOIN added ON true LEFT JOIN reply ON true`,
      [
        ...authorship(message),
        message.content,
        message.previousMessageId,
        JSON.stringify(message.metadata),
        message.status,
        conversationId,
        ...authorship(reply),
        toSafeText(reply.content),
        toSafeJson(reply.metadata),
        leaseMs / 1000,
      ],
    );
    if (!row?.alive || !row.message_at || !row.reply_at) throw DomainError.unauthorized(ACCOUNT_DELETED);
    return {
      message: this.messages.create({ ...message, createdAt: row.message_at }),
      reply: this.messages.create({ ...reply, previousMessageId: message.id, status: 'streaming', createdAt: row.reply_at }),
    };
  }

  /**
   * Replies whose process stopped renewing their lease (it crashed or was killed) become what was
   * checkpointed, cut short; the conversation moves to the reply if it still shows that exchange
   * (its user message or another reply to it). Safe from several replicas at once (SKIP LOCKED).
   * Returns how many were recovered.
   */
  async recoverAbandonedReplies(limit = 500): Promise<number> {
    const [row]: { recovered: number }[] = await this.dataSource.query(
      `WITH stale AS (
         SELECT id FROM message WHERE status = 'streaming' AND lease_expires_at < now()
         ORDER BY lease_expires_at LIMIT $1 FOR UPDATE SKIP LOCKED
       ), cut AS (
         UPDATE message m SET status = 'incomplete', lease_expires_at = NULL, metadata = m.metadata || '{"incomplete": true}'::jsonb
         FROM stale WHERE m.id = stale.id
         RETURNING m.id, m.chat_id, m.previous_message_id
       ), moved AS (
         UPDATE conversation c SET last_active_message_id = cut.id, last_message_at = now()
         FROM cut
         WHERE c.id = cut.chat_id
           AND (c.last_active_message_id = cut.previous_message_id
             OR c.last_active_message_id IN (SELECT s.id FROM message s WHERE s.previous_message_id = cut.previous_message_id))
         RETURNING c.id
       )
       SELECT (SELECT count(*) FROM cut)::int AS recovered, (SELECT count(*) FROM moved)::int AS moved`,
      [limit],
    );
    return row?.recovered ?? 0;
  }

  findShare(id: string): Promise<ShareEntity | null> {
    return this.shares.findOne({ where: { id, revokedAt: IsNull() } });
  }

  activeShare(userId: string, chatId: string): Promise<ShareEntity | null> {
    return this.shares.findOne({ where: { userId, chatId, revokedAt: IsNull() } });
  }

  async insertShare(share: Pick<ShareEntity, 'id' | 'chatId' | 'userId'>): Promise<ShareEntity> {
    return this.shares.save(this.shares.create({ ...share, revokedAt: null }));
  }

  async revokeShares(userId: string, chatId: string): Promise<number> {
    const result = await this.shares.update({ userId, chatId, revokedAt: IsNull() }, { revokedAt: new Date() });
    return result.affected ?? 0;
  }
}
