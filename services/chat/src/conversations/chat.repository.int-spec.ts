import { randomUUID } from 'node:crypto';
import { forgetUser, Outbox, type Bus } from '@app/platform';
import { serviceDatabase, type ServiceDatabase } from '@app/testing';
import type { DataSource } from 'typeorm';
import { MessageEntity } from './message.entity';
import { chatMigrations } from '../migrations';
import { ShareEntity } from './share.entity';
import { ChatRepository, type ExchangeCompleted } from './chat.repository';
import { ConversationEntity } from './conversation.entity';
import { ConversationsService } from './conversations.service';

const log = { warn: () => undefined, error: () => undefined };
const LEASE_MS = 60_000;

/**
 * The chat's hand-written SQL against the real PostgreSQL, on a database of its own with the chat
 * service's migrations (Immich's "medium" tests): the one-statement start and finish of a reply,
 * the reads that never show a reply still being written, the leases and their recovery, and the
 * exchange event written in the reply's own statement or not at all.
 */
describe('ChatRepository on PostgreSQL', () => {
  let db: ServiceDatabase;
  let source: DataSource;
  let chats: ChatRepository;

  beforeAll(async () => {
    db = await serviceDatabase({
      label: 'chatrepo',
      schema: 'chat',
      entities: [ConversationEntity, MessageEntity, ShareEntity],
      migrations: chatMigrations,
    });
    source = db.source;
    chats = new ChatRepository(source, new Outbox(source, {} as Bus, log));
  });

  afterAll(() => db?.drop());

  async function conversationOf(userId: string = randomUUID(), fields: { expiresAt?: Date | null } = {}) {
    return chats.createConversation(chats.newConversation({ id: randomUUID(), userId, title: null, ...fields }));
  }

  const userMessage = (conversation: ConversationEntity, content = 'Hello', previousMessageId: string | null = null) =>
    chats.newMessage({
      id: randomUUID(),
      chatId: conversation.id,
      userId: conversation.userId,
      sender: 'user',
      authorUserId: conversation.userId,
      expertId: null,
      expertName: null,
      content,
      previousMessageId,
      metadata: {},
    });

  const replyTo = (message: MessageEntity) =>
    chats.newMessage({
      id: randomUUID(),
      chatId: message.chatId,
      userId: message.userId,
      sender: 'assistant',
      authorUserId: null,
      expertId: null,
      expertName: null,
      content: '',
      previousMessageId: message.id,
      metadata: {},
    });

  async function started(conversation: ConversationEntity, content = 'Hello', previous: string | null = null) {
    const message = userMessage(conversation, content, previous);
    const start = await chats.addMessageWithReply(message, replyTo(message), LEASE_MS);
    if (start.missing) throw new Error(`The ${start.missing} was not found`);
    return start;
  }

  const exchangeOf = (conversation: ConversationEntity, message: MessageEntity, reply: MessageEntity): ExchangeCompleted => ({
    user_id: conversation.userId,
    chat_id: conversation.id,
    user_message_id: message.id,
    assistant_message_id: reply.id,
    user_text: message.content,
    assistant_text: reply.content,
  });

  async function outboxRows(eventId: string): Promise<number> {
    const rows: unknown[] = await source.query('SELECT 1 FROM outbox WHERE event_id = $1', [eventId]);
    return rows.length;
  }

  const statusOf = async (id: string) =>
    ((await source.query('SELECT status FROM message WHERE id = $1', [id])) as { status: string }[])[0]?.status ?? null;

  describe('a reply started with its message', () => {
    it('writes the message and a streaming reply in one statement and points the conversation at the message', async () => {
      const conversation = await conversationOf();
      const { message, reply } = await started(conversation);

      expect(reply.previousMessageId).toBe(message.id);
      expect(reply.createdAt.getTime()).toBeGreaterThanOrEqual(message.createdAt.getTime());
      expect(await statusOf(reply.id)).toBe('streaming');
      const after = await chats.findConversation(conversation.userId, conversation.id);
      expect(after?.lastActiveMessageId).toBe(message.id);
      expect(after?.lastMessageAt?.getTime()).toBe(message.createdAt.getTime());
    });

    it('keeps the user message readable while its reply streams, and the reply out of every read until it is finished', async () => {
      const conversation = await conversationOf();
      const { message, reply } = await started(conversation, 'Readable while the reply streams');

      expect((await chats.findMessage(conversation.userId, message.id))?.content).toBe('Readable while the reply streams');
      expect(await chats.findMessage(conversation.userId, reply.id)).toBeNull();
      expect((await chats.chatMessages(conversation.id)).map((m) => m.id)).toEqual([message.id]);
      expect((await chats.visibleMessages(conversation.userId)).map((m) => m.id)).toEqual([message.id]);
      // Its conversation is known (a hang-up or a stop names the reply).
      expect(await chats.chatOfMessage(conversation.userId, reply.id)).toBe(conversation.id);
      expect(await chats.chatOfMessage(randomUUID(), reply.id)).toBeNull();
    });

    it('reads the conversation and its written history in the same statement, the new message last', async () => {
      const conversation = await conversationOf();
      const first = await started(conversation, 'First');
      await chats.finishReply(Object.assign(first.reply, { content: 'Answer', status: 'complete' as const }), conversation.id, null);
      const pending = await started(conversation, 'Second', first.reply.id);

      const message = userMessage(conversation, 'Third');
      const third = await chats.addMessageWithReply(message, replyTo(message), LEASE_MS, { follow: true });
      if (third.missing) throw new Error(`The ${third.missing} was not found`);

      // It follows the active message (the second one); the replies still streaming are not in the history.
      expect(third.message.previousMessageId).toBe(pending.message.id);
      expect(third.history.map((m) => m.content)).toEqual(['First', 'Answer', 'Second', 'Third']);
      expect(third.history.map((m) => m.id)).toEqual((await chats.chatMessages(conversation.id)).map((m) => m.id));
      expect(third.history[1]).toMatchObject({ sender: 'assistant', status: 'complete', previousMessageId: first.message.id });
      expect(third.history[1].createdAt).toBeInstanceOf(Date);
      expect(third.history[1].createdAt.getTime()).toBe(
        (await chats.findMessage(conversation.userId, first.reply.id))?.createdAt.getTime(),
      );
      expect(third.conversation).toMatchObject({ id: conversation.id, userId: conversation.userId, lastActiveMessageId: message.id });
    });

    it("writes nothing in someone else's conversation, or after a message that is not one of the conversation's", async () => {
      const conversation = await conversationOf();
      const elsewhere = await started(await conversationOf(conversation.userId), 'Elsewhere');
      const theirs = await started(await conversationOf(), 'Theirs');
      const stranger = chats.newConversation({ id: conversation.id, userId: randomUUID(), title: null });

      const tried = async (to: ConversationEntity, previous: string | null) => {
        const message = userMessage(to, 'Hi', previous);
        return chats.addMessageWithReply(message, replyTo(message), LEASE_MS);
      };
      expect(await tried(stranger, null)).toEqual({ missing: 'conversation' });
      expect(await tried(conversation, elsewhere.message.id)).toEqual({ missing: 'previous message' });
      expect(await tried(conversation, theirs.message.id)).toEqual({ missing: 'previous message' });
      expect(await tried(conversation, randomUUID())).toEqual({ missing: 'previous message' });
      // A reply still being written is not a message to follow either.
      const own = await started(conversation, 'Mine');
      expect(await tried(conversation, own.reply.id)).toEqual({ missing: 'previous message' });
      const rows: unknown[] = await source.query('SELECT 1 FROM message WHERE chat_id = $1', [conversation.id]);
      expect(rows).toHaveLength(2);
    });

    it('writes nothing for an account deleted before the statement', async () => {
      const conversation = await conversationOf();
      await source.transaction((manager) => forgetUser(manager, conversation.userId));

      await expect(started(conversation)).rejects.toMatchObject({ status: 401 });
      const rows: unknown[] = await source.query('SELECT 1 FROM message WHERE chat_id = $1', [conversation.id]);
      expect(rows).toHaveLength(0);
    });
  });

  describe('finishing a reply', () => {
    it('stores the reply, moves the conversation to it and enqueues its exchange event, in one statement', async () => {
      const conversation = await conversationOf();
      const { message, reply } = await started(conversation);
      const done = Object.assign(reply, { content: 'Hi there', status: 'complete' as const, metadata: { model: 'offline' } });

      expect(await chats.finishReply(done, conversation.id, exchangeOf(conversation, message, done))).toBe(true);

      expect((await chats.findMessage(conversation.userId, reply.id))?.content).toBe('Hi there');
      expect((await chats.findConversation(conversation.userId, conversation.id))?.lastActiveMessageId).toBe(reply.id);
      expect(await outboxRows(`exchange:${reply.id}`)).toBe(1);
      const [lease] = (await source.query('SELECT lease_expires_at FROM message WHERE id = $1', [reply.id])) as {
        lease_expires_at: Date | null;
      }[];
      expect(lease.lease_expires_at).toBeNull();
    });

    it('writes neither the reply nor its exchange event when the conversation was deleted mid-reply', async () => {
      const conversation = await conversationOf();
      const { message, reply } = await started(conversation);
      expect(await chats.deleteConversation(conversation.userId, conversation.id)).toBe(true);

      const done = Object.assign(reply, { content: 'Too late', status: 'complete' as const });
      expect(await chats.finishReply(done, conversation.id, exchangeOf(conversation, message, done))).toBe(false);

      // No event: the memory service never learns from an exchange its user deleted.
      expect(await outboxRows(`exchange:${reply.id}`)).toBe(0);
      const rows: unknown[] = await source.query('SELECT 1 FROM message WHERE id = $1', [reply.id]);
      expect(rows).toHaveLength(0);
    });

    it('enqueues nothing for a reply that was cut short (no exchange to learn from)', async () => {
      const conversation = await conversationOf();
      const { reply } = await started(conversation);
      const cut = Object.assign(reply, { content: 'Half', status: 'incomplete' as const });

      expect(await chats.finishReply(cut, conversation.id, null)).toBe(true);
      expect(await statusOf(reply.id)).toBe('incomplete');
      expect(await outboxRows(`exchange:${reply.id}`)).toBe(0);
    });

    it('refuses NUL bytes by making them safe rather than failing the statement', async () => {
      const conversation = await conversationOf();
      const { message, reply } = await started(conversation);
      const done = Object.assign(reply, { content: 'a\u0000b', status: 'complete' as const, metadata: { note: 'x\u0000y' } });

      expect(await chats.finishReply(done, conversation.id, exchangeOf(conversation, message, done))).toBe(true);
      const stored = await chats.findMessage(conversation.userId, reply.id);
      expect(stored?.content).not.toContain('\u0000');
      expect(JSON.stringify(stored?.metadata)).not.toContain('\\u0000');
    });
  });

  describe('leases', () => {
    it('checkpoints only a reply still streaming', async () => {
      const conversation = await conversationOf();
      const { reply } = await started(conversation);
      await chats.checkpointReply(reply.id, 'So far', {}, LEASE_MS);
      const [row] = (await source.query('SELECT content FROM message WHERE id = $1', [reply.id])) as { content: string }[];
      expect(row.content).toBe('So far');

      await chats.finishReply(Object.assign(reply, { content: 'Final', status: 'complete' as const }), conversation.id, null);
      await chats.checkpointReply(reply.id, 'A late checkpoint', {}, LEASE_MS);
      expect((await chats.findMessage(conversation.userId, reply.id))?.content).toBe('Final');
    });

    it('recovers a reply whose lease ran out as what was checkpointed, cut short, once, and leaves a renewed one alone', async () => {
      const conversation = await conversationOf();
      const abandoned = await started(conversation, 'First');
      const other = await conversationOf();
      const living = await started(other, 'Second');
      await chats.checkpointReply(abandoned.reply.id, 'Checkpointed', {}, LEASE_MS);
      await source.query("UPDATE message SET lease_expires_at = now() - interval '1 second' WHERE id = $1", [abandoned.reply.id]);
      await chats.renewLeases([living.reply.id], LEASE_MS);

      // Two replicas at once: each stale reply is recovered by one of them.
      const recovered = await Promise.all([chats.recoverAbandonedReplies(), chats.recoverAbandonedReplies()]);
      expect(recovered[0] + recovered[1]).toBe(1);
      expect(await statusOf(abandoned.reply.id)).toBe('incomplete');
      expect(await statusOf(living.reply.id)).toBe('streaming');

      const stored = await chats.findMessage(conversation.userId, abandoned.reply.id);
      expect(stored?.content).toBe('Checkpointed');
      expect(stored?.metadata).toMatchObject({ incomplete: true });
      expect((await chats.findConversation(conversation.userId, conversation.id))?.lastActiveMessageId).toBe(abandoned.reply.id);
      expect(await chats.recoverAbandonedReplies()).toBe(0);
    });

    it("does not move a conversation whose user went on elsewhere when recovering an old branch's reply", async () => {
      const conversation = await conversationOf();
      const first = await started(conversation, 'First');
      await chats.finishReply(Object.assign(first.reply, { content: 'One', status: 'complete' as const }), conversation.id, null);
      const second = await started(conversation, 'Second', first.reply.id);
      // The user edits the first message meanwhile: a new branch from the root is now active.
      const edit = await started(conversation, 'First, edited');
      await chats.finishReply(Object.assign(edit.reply, { content: 'Edited', status: 'complete' as const }), conversation.id, null);
      await source.query("UPDATE message SET lease_expires_at = now() - interval '1 second' WHERE id = $1", [second.reply.id]);

      expect(await chats.recoverAbandonedReplies()).toBeGreaterThanOrEqual(1);
      expect((await chats.findConversation(conversation.userId, conversation.id))?.lastActiveMessageId).toBe(edit.reply.id);
    });
  });

  describe('titles', () => {
    it('titles an untitled conversation once per event, even when the event comes again after the title was cleared', async () => {
      const conversation = await conversationOf();
      expect(await chats.isUntitled(conversation.userId, conversation.id)).toBe(true);
      const eventId = `title:${randomUUID()}`;

      // Another user's event names nothing of this user's.
      expect(await chats.isUntitled(randomUUID(), conversation.id)).toBe(false);
      expect(await chats.titleOnce(`title:${randomUUID()}`, randomUUID(), conversation.id, 'Not theirs')).toBe(false);

      expect(await chats.titleOnce(eventId, conversation.userId, conversation.id, 'Trip to Lisbon')).toBe(true);
      const titled = await chats.findConversation(conversation.userId, conversation.id);
      expect(titled?.title).toBe('Trip to Lisbon');
      expect(titled!.updatedAt.getTime()).toBeGreaterThan(conversation.updatedAt.getTime());
      expect(await chats.isUntitled(conversation.userId, conversation.id)).toBe(false);
      await source.query('UPDATE conversation SET title = NULL WHERE id = $1', [conversation.id]);
      // The same event redelivered: applied once, so the cleared title stays cleared.
      expect(await chats.titleOnce(eventId, conversation.userId, conversation.id, 'Trip to Lisbon')).toBe(false);
      expect(await chats.isUntitled(conversation.userId, conversation.id)).toBe(true);
    });

    it("keeps the user's own title: an event never overwrites it", async () => {
      const conversation = await conversationOf();
      conversation.title = 'Mine';
      await chats.saveConversation(conversation);
      expect(await chats.titleOnce(`title:${randomUUID()}`, conversation.userId, conversation.id, 'Generated')).toBe(false);
      expect((await chats.findConversation(conversation.userId, conversation.id))?.title).toBe('Mine');
    });
  });

  describe('the paged read of a branch', () => {
    /** A message stored after `previous` (each later than the last: its own statement's now()). */
    const say = (conversation: ConversationEntity, sender: 'user' | 'assistant', previous: MessageEntity | null, content: string) =>
      chats.saveMessage(
        chats.newMessage({
          ...(sender === 'user' ? userMessage(conversation, content, previous?.id ?? null) : replyTo(previous!)),
          content,
        }),
      );

    /**
     * Six exchanges, the second answered twice (b2 after a2) with a branch of its own (u3b → a3b);
     * the active branch goes through a2 to a6. A reply to a6 is still being written.
     */
    async function branched() {
      const conversation = await conversationOf();
      const chain: MessageEntity[] = [];
      let previous: MessageEntity | null = null;
      let b2: MessageEntity | null = null;
      let a3b: MessageEntity | null = null;
      for (let i = 1; i <= 6; i++) {
        const user = await say(conversation, 'user', previous, `question ${i}`);
        const reply = await say(conversation, 'assistant', user, `answer ${i}`);
        chain.push(user, reply);
        if (i === 2) {
          b2 = await say(conversation, 'assistant', user, 'another answer 2');
          a3b = await say(conversation, 'assistant', await say(conversation, 'user', b2, 'question 3b'), 'answer 3b');
        }
        previous = reply;
      }
      conversation.lastActiveMessageId = previous!.id;
      await chats.saveConversation(conversation);
      await started(conversation, 'question 7', previous!.id);
      return { conversation, chain, b2: b2!, a3b: a3b! };
    }

    const pages = () => new ConversationsService(chats, { CHAT_TEMPORARY_CHAT_TTL_SECONDS: 60 }, { find: async () => null });
    const as = (userId: string) => ({ user_id: userId, is_anon: false, session_id: 's', request_id: 'r' }) as never;
    const ids = (page: { messages: { message_id: string }[] }) => page.messages.map((m) => m.message_id);

    it('reads the shape of the conversation, the reply being written marked as such (a live lease only), and the words of only the messages asked for', async () => {
      const { conversation, chain, b2 } = await branched();
      const { nodes: tree, lastActiveMessageId } = await chats.messageTree(conversation.userId, conversation.id);
      // Where the conversation ends, read in the same statement: the user message of the reply streaming.
      expect(lastActiveMessageId).toBe(tree.find((node) => node.writing)!.previousMessageId);
      // 12 of the active branch, b2, u3b, a3b, the user message of the reply streaming, and that reply.
      expect(tree).toHaveLength(17);
      const question7 = tree.find(
        (node) => node.sender === 'user' && !chain.some((m) => m.id === node.id) && node.previousMessageId === chain[11].id,
      );
      expect(tree.filter((node) => node.writing)).toEqual([
        expect.objectContaining({ sender: 'assistant', previousMessageId: question7!.id, writing: { content: expect.any(String) } }),
      ]);
      expect(tree.filter((node) => node.id !== tree.find((n) => n.writing)!.id).every((node) => node.writing === undefined)).toBe(true);
      expect(tree.find((node) => node.id === b2.id)).toMatchObject({ previousMessageId: chain[2].id, sender: 'assistant', hidden: false });
      // Its lease run out (its process gone): not being written any more, and not on a branch until recovered.
      await source.query("UPDATE message SET lease_expires_at = now() - interval '1 second' WHERE chat_id = $1 AND status = 'streaming'", [
        conversation.id,
      ]);
      expect((await chats.messageTree(conversation.userId, conversation.id)).nodes).toHaveLength(16);
      const read = await chats.messagesIn(conversation.userId, conversation.id, [chain[5].id, chain[0].id, randomUUID()]);
      expect(read.map((m) => m.content)).toEqual(['answer 3', 'question 1']);
      expect(await chats.messageTree(randomUUID(), conversation.id)).toEqual({ nodes: [], lastActiveMessageId: null });
      expect(await chats.messagesIn(randomUUID(), conversation.id, [chain[0].id])).toEqual([]);
    });

    it('says whether one of some messages has a file attached: only among those, only the owner’s', async () => {
      const { conversation, chain } = await branched();
      const file = { object_store_object_id: 'file-of-question-3', mime_type: 'image/png' };
      await source.query(`UPDATE message SET metadata = jsonb_set(metadata, '{files}', $2::jsonb) WHERE id = $1`, [
        chain[4].id,
        JSON.stringify([{ object_store_object_id: 'another', mime_type: 'image/png' }, file]),
      ]);
      const has = (ids: string[], objectId = file.object_store_object_id, userId = conversation.userId) =>
        chats.anyHasFile(userId, conversation.id, ids, objectId);
      expect(await has(chain.map((m) => m.id))).toBe(true);
      expect(await has([chain[4].id], 'another')).toBe(true);
      expect(await has(chain.filter((m) => m !== chain[4]).map((m) => m.id))).toBe(false);
      expect(
        await has(
          chain.map((m) => m.id),
          'file-of-question',
        ),
      ).toBe(false);
      expect(
        await has(
          chain.map((m) => m.id),
          file.object_store_object_id,
          randomUUID(),
        ),
      ).toBe(false);
      expect(await has([])).toBe(false);
    });

    it('pages the active branch back to its start, each message of several versions with where each leads', async () => {
      const { conversation, chain, b2, a3b } = await branched();
      const owner = as(conversation.userId);
      const newest = await pages().page(owner, { chat_id: conversation.id, limit: 5 });
      const active = [...chain.map((m) => m.id)];
      // The conversation points at the user message of the reply being written: the page ends there.
      const question7 = newest.leaf_id!;
      expect(ids(newest)).toEqual([...active.slice(-4), question7]);
      expect(newest.has_more).toBe(true);
      const middle = await pages().page(owner, { chat_id: conversation.id, before: newest.messages[0].message_id, limit: 5 });
      expect(ids(middle)).toEqual(active.slice(-9, -4));
      const oldest = await pages().page(owner, { chat_id: conversation.id, before: middle.messages[0].message_id, limit: 5 });
      expect(ids(oldest)).toEqual(active.slice(0, 3));
      expect(oldest.has_more).toBe(false);
      expect(oldest.versions).toEqual([]);
      expect(middle.versions).toEqual([
        {
          message_id: chain[3].id,
          versions: [
            { message_id: chain[3].id, leaf_id: question7 },
            { message_id: b2.id, leaf_id: a3b.id },
          ],
        },
      ]);
      const other = await pages().page(owner, { chat_id: conversation.id, through: b2.id, limit: 50 });
      expect(other.leaf_id).toBe(a3b.id);
      expect(other.messages.map((m) => m.content)).toEqual([
        'question 1',
        'answer 1',
        'question 2',
        'another answer 2',
        'question 3b',
        'answer 3b',
      ]);
    });

    it("refuses another user's conversation and a cursor from another user's conversation as not found", async () => {
      const { conversation, chain } = await branched();
      const theirs = await branched();
      const owner = as(conversation.userId);
      await expect(pages().page(as(randomUUID()), { chat_id: conversation.id, limit: 5 })).rejects.toMatchObject({ status: 404 });
      await expect(pages().page(owner, { chat_id: conversation.id, before: theirs.chain[3].id, limit: 5 })).rejects.toMatchObject({
        status: 404,
        detail: 'Message not found',
      });
      await expect(pages().page(owner, { chat_id: theirs.conversation.id, before: chain[3].id, limit: 5 })).rejects.toMatchObject({
        status: 404,
      });
    });
  });

  describe('ownership and lifetimes', () => {
    it("never reads or deletes another user's conversation or message", async () => {
      const conversation = await conversationOf();
      const { message } = await started(conversation);
      const stranger = randomUUID();

      expect(await chats.findConversation(stranger, conversation.id)).toBeNull();
      expect(await chats.findMessage(stranger, message.id)).toBeNull();
      expect(await chats.visibleMessages(stranger, [conversation.id])).toEqual([]);
      expect(await chats.deleteConversation(stranger, conversation.id)).toBe(false);
      expect(await chats.findConversation(conversation.userId, conversation.id)).not.toBeNull();
    });

    it('lists a user’s conversations newest activity first, those without messages after', async () => {
      const userId = randomUUID();
      const empty = await conversationOf(userId);
      const older = await conversationOf(userId);
      await started(older);
      const newer = await conversationOf(userId);
      await started(newer);

      expect((await chats.listConversations(userId)).map((c) => c.id)).toEqual([newer.id, older.id, empty.id]);
    });

    it('deletes only the temporary chats whose time is up, with their messages', async () => {
      const expired = await conversationOf(randomUUID(), { expiresAt: new Date(Date.now() - 60_000) });
      const { message } = await started(expired);
      const current = await conversationOf(randomUUID(), { expiresAt: new Date(Date.now() + 3_600_000) });
      const kept = await conversationOf();

      expect(await chats.deleteExpiredConversations()).toBe(1);
      expect(await chats.findConversation(expired.userId, expired.id)).toBeNull();
      expect(await chats.findMessage(expired.userId, message.id)).toBeNull();
      expect(await chats.findConversation(current.userId, current.id)).not.toBeNull();
      expect(await chats.findConversation(kept.userId, kept.id)).not.toBeNull();
    });

    it('shares: one active link per conversation until revoked', async () => {
      const conversation = await conversationOf();
      const share = await chats.insertShare({ id: randomUUID(), chatId: conversation.id, userId: conversation.userId });
      expect((await chats.activeShare(conversation.userId, conversation.id))?.id).toBe(share.id);
      expect((await chats.findShare(share.id))?.chatId).toBe(conversation.id);

      expect(await chats.revokeShares(randomUUID(), conversation.id)).toBe(0);
      expect(await chats.revokeShares(conversation.userId, conversation.id)).toBe(1);
      expect(await chats.findShare(share.id)).toBeNull();
      expect(await chats.activeShare(conversation.userId, conversation.id)).toBeNull();
    });
  });
});
