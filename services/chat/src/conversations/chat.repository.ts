import { Injectable } from '@nestjs/common';
import { toSafeJson, toSafeText, type PayloadOf } from '@app/contracts';
import { CHAT_EVENTS } from '@app/contracts/chat';
import { ACCOUNT_DELETED, DomainError, lockLivingUser, Outbox, plainQuery, platformMetrics } from '@app/platform';
import { DataSource, In, IsNull, Not, QueryFailedError, type EntityManager } from 'typeorm';
import { MessageEntity } from './message.entity';
import { ShareEntity } from './share.entity';
import { ConversationEntity } from './conversation.entity';
import type { TreeNode } from './message-tree';

export type ExchangeCompleted = PayloadOf<typeof CHAT_EVENTS.exchangeCompleted>;

/**
 * A reply's start (`addMessageWithReply`): what was stored and read, or what was not found (then
 * nothing was written).
 */
export type StartedExchange =
  | { missing: 'conversation' | 'previous message' }
  | {
      missing?: undefined;
      /** The conversation, pointing at the new message. */
      conversation: ConversationEntity;
      message: MessageEntity;
      reply: MessageEntity;
      /** Its messages as `chatMessages` reads them (written ones, oldest first), the new message last. */
      history: MessageEntity[];
    };

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

const CONVERSATION_COLUMNS =
  'id, user_id, title, last_message_at, last_active_message_id, is_commercial, is_shared, expires_at, project_id, created_at, updated_at';

function conversationOf(row: ConversationRow): ConversationEntity {
  return Object.assign(new ConversationEntity(), {
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

/*
 * The statements of every reply's start and end, sent with plainQuery (no TypeORM machinery around
 * them) and prepared once per connection under their names.
 */
const FIND_CONVERSATION = {
  name: 'chat-find-conversation',
  text: `SELECT ${CONVERSATION_COLUMNS} FROM conversation WHERE id = $1 AND user_id = $2`,
};
const IS_UNTITLED = { name: 'chat-is-untitled', text: 'SELECT 1 FROM conversation WHERE id = $1 AND user_id = $2 AND title IS NULL' };
/** $1 consumer, $2 event id, $3 conversation, $4 owner, $5 title; `updated_at` moves as TypeORM's update moved it. */
const TITLE_ONCE = {
  name: 'chat-title-once',
  text: `WITH once AS (
     INSERT INTO processed_event (consumer, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING event_id
   ), titled AS (
     UPDATE conversation SET title = $5, updated_at = now()
     WHERE id = $3 AND user_id = $4 AND title IS NULL AND EXISTS (SELECT 1 FROM once)
     RETURNING id
   )
   SELECT (SELECT count(*) FROM once)::int AS applied, (SELECT count(*) FROM titled)::int AS titled`,
};
const CHAT_MESSAGES = {
  name: 'chat-messages',
  text: `SELECT ${MESSAGE_COLUMNS} FROM message WHERE chat_id = $1 AND status <> 'streaming' ORDER BY created_at ASC`,
};
const CHECKPOINT_REPLY = {
  name: 'chat-checkpoint-reply',
  text: "UPDATE message SET content = $2, metadata = $3::jsonb, lease_expires_at = now() + make_interval(secs => $4) WHERE id = $1 AND status = 'streaming'",
};
const RENEW_LEASES = {
  name: 'chat-renew-leases',
  text: "UPDATE message SET lease_expires_at = now() + make_interval(secs => $2) WHERE id = ANY($1::uuid[]) AND status = 'streaming'",
};
/** See `addMessageWithReply`. */
const START_EXCHANGE = {
  name: 'chat-start-exchange',
  text: `WITH conv AS (
         SELECT ${CONVERSATION_COLUMNS} FROM conversation WHERE id = $2 AND user_id = $3
       ), prev AS (
         SELECT CASE WHEN $22::boolean THEN conv.last_active_message_id ELSE $9::uuid END AS id,
                ($22::boolean OR $9::uuid IS NULL OR EXISTS (
                  SELECT 1 FROM message p WHERE p.id = $9::uuid AND p.user_id = $3 AND p.chat_id = conv.id AND p.status <> 'streaming'
                )) AS found
         FROM conv
       ), living AS (
         SELECT living_user($3::uuid::text) AS alive FROM prev WHERE found
       ), added AS (
         INSERT INTO message (id, chat_id, user_id, sender, author_user_id, expert_id, expert_name, content, previous_message_id, metadata, status, created_at)
         SELECT $1, $2, $3, $4, $5, $6, $7, $8, prev.id, $10::jsonb, $11, now() FROM living, prev WHERE alive
         RETURNING created_at, previous_message_id
       ), moved AS (
         UPDATE conversation SET last_active_message_id = $1, last_message_at = added.created_at, updated_at = now()
         FROM added WHERE conversation.id = $2
       ), reply AS (
         INSERT INTO message (id, chat_id, user_id, sender, author_user_id, expert_id, expert_name, content, previous_message_id, metadata, status, lease_expires_at, created_at)
         SELECT $12, $13, $14, $15, $16, $17, $18, $19, $1, $20::jsonb, 'streaming', clock_timestamp() + make_interval(secs => $21), clock_timestamp()
         FROM added
         RETURNING created_at
       ), history AS (
         SELECT ${MESSAGE_COLUMNS} FROM message WHERE chat_id = $2 AND status <> 'streaming' AND EXISTS (SELECT 1 FROM added)
       )
       SELECT conv.*, prev.found AS previous_found, living.alive, added.previous_message_id, added.created_at AS message_at,
              reply.created_at AS reply_at,
              (SELECT json_agg(h ORDER BY h.created_at) FROM history h) AS history
       FROM (SELECT 1) AS one LEFT JOIN conv ON true LEFT JOIN prev ON true LEFT JOIN living ON true
         LEFT JOIN added ON true LEFT JOIN reply ON true`,
};

/** The final save's statement (with or without its event, whose SQL the outbox writes): a name per text. */
const finishStatements = new Map<string, { name: string; text: string }>();
function finishStatement(text: string): { name: string; text: string } {
  let statement = finishStatements.get(text);
  if (!statement) finishStatements.set(text, (statement = { name: `chat-finish-reply-${finishStatements.size}`, text }));
  return statement;
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

  /** A plain query (TypeORM's find costs more CPU than the round trip). */
  async findConversation(userId: string, id: string): Promise<ConversationEntity | null> {
    const rows = await plainQuery<ConversationRow>(this.dataSource, FIND_CONVERSATION, [id, userId]);
    return rows[0] ? conversationOf(rows[0]) : null;
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

  /** Whether the user's conversation exists and has no title (after every first exchange: a plain query). */
  async isUntitled(userId: string, chatId: string): Promise<boolean> {
    return (await plainQuery(this.dataSource, IS_UNTITLED, [chatId, userId])).length > 0;
  }

  /**
   * Gives an untitled conversation its title, once per event: false when this event was applied
   * already, or the conversation is gone or has a title meanwhile (the user's own wins). What
   * `applyOnce` does in a transaction of four statements, in one (atomic as well): the event
   * recorded as applied by titling, and the title written only if it was recorded now.
   */
  async titleOnce(eventId: string, userId: string, chatId: string, title: string): Promise<boolean> {
    const [row] = await plainQuery<{ applied: number; titled: number }>(this.dataSource, TITLE_ONCE, [
      TITLE_CONSUMER,
      eventId,
      chatId,
      userId,
      toSafeText(title),
    ]);
    if (!row?.applied) platformMetrics.recordEventRedelivered(TITLE_CONSUMER);
    return (row?.titled ?? 0) > 0;
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
    const rows = await plainQuery<MessageRow>(this.dataSource, CHAT_MESSAGES, [chatId]);
    return rows.map(messageOf);
  }

  /**
   * The shape of the user's conversation (every written message, without its words: a few bytes a
   * message), the replies being written in it (`writing`: a live lease, with their text as last
   * saved), and its last active message, all as of one moment (one statement): a reply stored
   * between two reads would otherwise be neither being written nor where the conversation ends.
   */
  async messageTree(userId: string, chatId: string): Promise<{ nodes: TreeNode[]; lastActiveMessageId: string | null }> {
    const rows: {
      id: string;
      previous_message_id: string | null;
      sender: string;
      hidden: boolean;
      created_at: Date;
      writing: boolean;
      writing_content: string | null;
      last_active: string | null;
    }[] = await this.dataSource.query(
      `SELECT id, previous_message_id, sender, hidden, created_at, status = 'streaming' AS writing,
         CASE WHEN status = 'streaming' THEN content END AS writing_content,
         (SELECT last_active_message_id FROM conversation WHERE id = $1 AND user_id = $2) AS last_active
       FROM message
       WHERE chat_id = $1 AND user_id = $2 AND (status <> 'streaming' OR lease_expires_at > now())`,
      [chatId, userId],
    );
    return {
      nodes: rows.map((r) => ({
        id: r.id,
        previousMessageId: r.previous_message_id,
        sender: r.sender,
        hidden: r.hidden,
        createdAt: r.created_at,
        ...(r.writing ? { writing: { content: r.writing_content ?? '' } } : {}),
      })),
      lastActiveMessageId: rows[0]?.last_active ?? null,
    };
  }

  /** These written messages of the user's conversation, in the order of `ids` (those not found left out). */
  async messagesIn(userId: string, chatId: string, ids: string[]): Promise<MessageEntity[]> {
    if (!ids.length) return [];
    const rows: MessageRow[] = await this.dataSource.query(
      `SELECT ${MESSAGE_COLUMNS} FROM message WHERE chat_id = $1 AND user_id = $2 AND id = ANY($3::uuid[]) AND status <> 'streaming'`,
      [chatId, userId, ids],
    );
    const byId = new Map(rows.map((row) => [row.id, messageOf(row)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** Whether one of these written messages of the user's conversation has this file attached. */
  async anyHasFile(userId: string, chatId: string, ids: string[], objectId: string): Promise<boolean> {
    if (!ids.length) return false;
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM message
       WHERE chat_id = $1 AND user_id = $2 AND id = ANY($3::uuid[]) AND status <> 'streaming'
         AND metadata->'files' @> jsonb_build_array(jsonb_build_object('object_store_object_id', $4::text))
       LIMIT 1`,
      [chatId, userId, ids, objectId],
    );
    return rows.length > 0;
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
    await plainQuery(this.dataSource, CHECKPOINT_REPLY, [id, toSafeText(content), toSafeJson(metadata), leaseMs / 1000]);
  }

  /** Renews the leases of these replies still being written (by this process: see ReplyLeases). */
  async renewLeases(ids: string[], leaseMs: number): Promise<void> {
    if (!ids.length) return;
    await plainQuery(this.dataSource, RENEW_LEASES, [ids, leaseMs / 1000]);
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
    const [row] = await plainQuery<{ written: number }>(
      this.dataSource,
      finishStatement(
        `WITH written AS (
         UPDATE message SET content = $2, status = $3, metadata = $4::jsonb, lease_expires_at = NULL WHERE id = $1 RETURNING id
       ), moved AS (
         UPDATE conversation SET last_active_message_id = $1, last_message_at = clock_timestamp(), updated_at = now()
         FROM written WHERE conversation.id = $5
       )${event ? `, queued AS (${event.insertSql(6, 'written')})` : ''}
       SELECT count(*)::int AS written FROM written`,
      ),
      [reply.id, toSafeText(reply.content), reply.status, toSafeJson(reply.metadata), conversationId, ...(event?.params ?? [])],
    );
    const written = (row?.written ?? 0) > 0;
    if (written && event) this.outbox.written();
    return written;
  }

  /**
   * A reply's start, in one statement (one round trip, atomic): the owner's conversation looked up
   * (`message.chatId`, `message.userId`), the message it follows checked, the new user message
   * written, the conversation pointed at it, its reply started (`streaming`, see `startReply`) and
   * the conversation's history read (what `chatMessages` reads, then the new message), so there is
   * no instant at which the message has no reply row. The message follows `message.previousMessageId`
   * (null: a new first message, a branch from the root; otherwise one of the owner's written messages
   * of this conversation), or with `follow` the conversation's active message. Nothing is written
   * when the conversation is not the owner's or the message it follows is not in it (`missing` says
   * which), and nothing when the account was deleted: `living_user` takes the user's lock shared
   * first, as `lockLivingUser` does, and every write selects from it (DomainError 401).
   */
  async addMessageWithReply(
    message: MessageEntity,
    reply: MessageEntity,
    leaseMs: number,
    options: { follow?: boolean } = {},
  ): Promise<StartedExchange> {
    const follow = options.follow === true;
    // The history is read in the statement's snapshot, before its own writes: the new message is added to it below.
    const [row]: (Partial<ConversationRow> & {
      previous_found: boolean | null;
      alive: boolean | null;
      previous_message_id: string | null;
      message_at: Date | null;
      reply_at: Date | null;
      history: (Omit<MessageRow, 'created_at' | 'lease_expires_at'> & { created_at: string; lease_expires_at: string | null })[] | null;
    })[] = await plainQuery(this.dataSource, START_EXCHANGE, [
      ...authorship(message),
      message.content,
      follow ? null : message.previousMessageId,
      JSON.stringify(message.metadata),
      message.status,
      ...authorship(reply),
      toSafeText(reply.content),
      toSafeJson(reply.metadata),
      leaseMs / 1000,
      follow,
    ]);
    if (!row?.id) return { missing: 'conversation' };
    if (!row.previous_found) return { missing: 'previous message' };
    if (!row.alive || !row.message_at || !row.reply_at) throw DomainError.unauthorized(ACCOUNT_DELETED);
    const stored = this.messages.create({ ...message, previousMessageId: row.previous_message_id, createdAt: row.message_at });
    const conversation = conversationOf(row as ConversationRow);
    Object.assign(conversation, { lastActiveMessageId: stored.id, lastMessageAt: stored.createdAt });
    return {
      conversation,
      message: stored,
      reply: this.messages.create({ ...reply, previousMessageId: stored.id, status: 'streaming', createdAt: row.reply_at }),
      history: [
        ...(row.history ?? []).map((m) =>
          messageOf({
            ...m,
            created_at: new Date(m.created_at),
            lease_expires_at: m.lease_expires_at ? new Date(m.lease_expires_at) : null,
          }),
        ),
        stored,
      ],
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
