import type { Caller } from '@app/contracts';
import { DomainError } from '@app/platform';
import { aConversation, aMessage } from '../testing/builders';
import { FakeChatRepository } from '../testing/chat-repository.fake';
import { FakeProjectsRepository } from '../testing/projects.fake';
import { ConversationsService } from './conversations.service';

const caller = (user_id: string | null = 'owner'): Caller => ({ user_id, is_anon: true, session_id: 's', request_id: 'r' }) as Caller;
const OWNER = caller('owner');
const STRANGER = caller('stranger');

/** Rejects with a DomainError of this status and detail. */
const refused = (status: number, detail?: string) => expect.objectContaining({ status, ...(detail ? { detail } : {}) });

describe('ConversationsService', () => {
  let repo: FakeChatRepository;
  let service: ConversationsService;

  beforeEach(() => {
    repo = new FakeChatRepository();
    service = new ConversationsService(repo, { CHAT_TEMPORARY_CHAT_TTL_SECONDS: 86_400 }, new FakeProjectsRepository(repo));
  });

  /** u1 → a1 → u2 → a2, with a1' (a regeneration of a1) beside a1, the active branch ending at a2. */
  const branchedChat = () => {
    const chat = aConversation({ id: 'chat', title: 'Trip' });
    const u1 = aMessage({ id: 'u1', chatId: 'chat', content: 'Where to?' });
    const a1 = aMessage({ id: 'a1', chatId: 'chat', sender: 'assistant', previousMessageId: 'u1', content: 'Lisbon.' });
    const a1b = aMessage({ id: "a1'", chatId: 'chat', sender: 'assistant', previousMessageId: 'u1', content: 'Porto.' });
    const u2 = aMessage({
      id: 'u2',
      chatId: 'chat',
      previousMessageId: 'a1',
      content: 'When?',
      metadata: { files: [{ object_store_object_id: 'file-u2', mime_type: 'image/png' }] },
    });
    const a2 = aMessage({
      id: 'a2',
      chatId: 'chat',
      sender: 'assistant',
      previousMessageId: 'u2',
      content: 'April.',
      authorUserId: null,
      metadata: { memory_ids: ['m1'], model: 'fast' },
    });
    chat.lastActiveMessageId = 'a2';
    repo.seed(chat, u1, a1, a1b, u2, a2);
    return { chat, u1, a1, a1b, u2, a2 };
  };
  /** A reply a process is writing now (its row streaming, its lease alive), with its text so far. */
  const replyBeingWritten = (id: string, previousMessageId: string, content: string) =>
    Object.assign(aMessage({ id, chatId: 'chat', sender: 'assistant', previousMessageId, content }), {
      status: 'streaming' as const,
      leaseExpiresAt: new Date(Date.now() + 60_000),
    });
  /** The branched chat with one more question at its end, u3, whose reply a3 is being written. */
  const questionBeingAnswered = () => {
    const { chat } = branchedChat();
    const writing = replyBeingWritten('a3', 'u3', 'Then Sint');
    repo.seed(aMessage({ id: 'u3', chatId: 'chat', previousMessageId: 'a2', content: 'And after?' }), writing);
    chat.lastActiveMessageId = 'u3';
    return { chat, writing };
  };

  it('answers 401 to a caller without a user', async () => {
    await expect(service.list(caller(null))).rejects.toBeInstanceOf(DomainError);
    await expect(service.list(caller(null))).rejects.toEqual(refused(401));
  });

  describe('conversations', () => {
    it("lists only the caller's, the one with the latest message first, then the newest", async () => {
      repo.seed(
        aConversation({ id: 'old-quiet', createdAt: new Date('2026-01-01') }),
        aConversation({ id: 'new-quiet', createdAt: new Date('2026-01-03') }),
        aConversation({ id: 'talked', createdAt: new Date('2025-12-01'), lastMessageAt: new Date('2026-01-02') }),
        aConversation({ id: 'theirs', userId: 'stranger' }),
      );
      expect((await service.list(OWNER)).map((c) => c.chat_id)).toEqual(['talked', 'new-quiet', 'old-quiet']);
    });

    it('creates one with a trimmed title, or none when it is blank', async () => {
      expect((await service.create(OWNER, '  Garden  ')).conversation_title).toBe('Garden');
      expect((await service.create(OWNER, '   ')).conversation_title).toBeNull();
      expect((await service.create(OWNER, undefined)).conversation_title).toBeNull();
      expect([...repo.conversations.values()].every((c) => c.userId === 'owner')).toBe(true);
      expect([...repo.conversations.values()].some((c) => c.isShared)).toBe(false);
    });

    it('creates a shared one (an SMS group) only when asked', async () => {
      const shared = await service.create(OWNER, 'Trip', true);
      expect(repo.conversations.get(shared.chat_id)?.isShared).toBe(true);
    });

    it('creates nothing for an account deleted meanwhile (401)', async () => {
      repo.forgotten.add('owner');
      await expect(service.create(OWNER, 'Late')).rejects.toEqual(refused(401, 'This account has been deleted.'));
      expect(repo.conversations.size).toBe(0);
    });

    it('shows one with its messages, without hidden ones or a reply still being written', async () => {
      const { chat } = branchedChat();
      repo.seed(aMessage({ id: 'hidden', chatId: 'chat', hidden: true }), aMessage({ id: 'writing', chatId: 'chat', status: 'streaming' }));
      const view = await service.get(OWNER, chat.id);
      expect(view).toMatchObject({ chat_id: 'chat', conversation_title: 'Trip', last_active_message_id: 'a2' });
      // Every branch is there (the client builds the version switcher from them).
      expect(view.messages.map((m) => m.message_id)).toEqual(['u1', 'a1', "a1'", 'u2', 'a2']);
    });

    it("says 'not found' for another user's conversation, whatever the call", async () => {
      const { chat, a2 } = branchedChat();
      const notFound = refused(404, 'Conversation not found');
      await expect(service.get(STRANGER, chat.id)).rejects.toEqual(notFound);
      await expect(service.update(STRANGER, { chat_id: chat.id, conversation_title: 'Mine' })).rejects.toEqual(notFound);
      await expect(service.remove(STRANGER, chat.id)).rejects.toEqual(notFound);
      await expect(service.share(STRANGER, chat.id)).rejects.toEqual(notFound);
      await expect(service.unshare(STRANGER, chat.id)).rejects.toEqual(notFound);
      await expect(service.feedback(STRANGER, { message_id: a2.id, feedback: 'like' })).rejects.toEqual(refused(404, 'Message not found'));
      expect(await service.messages(STRANGER, [chat.id])).toEqual([]);
      expect(repo.conversations.get(chat.id)?.title).toBe('Trip');
    });

    it('renames, and switches the active branch to a message of the same conversation only', async () => {
      const { chat } = branchedChat();
      const other = aConversation({ id: 'other' });
      repo.seed(other, aMessage({ id: 'elsewhere', chatId: 'other' }), aMessage({ id: 'theirs', chatId: 'chat', userId: 'stranger' }));
      expect(
        await service.update(OWNER, { chat_id: chat.id, conversation_title: 'Spring trip', last_active_message_id: "a1'" }),
      ).toMatchObject({
        conversation_title: 'Spring trip',
        last_active_message_id: "a1'",
      });
      for (const id of ['elsewhere', 'theirs', 'missing']) {
        await expect(service.update(OWNER, { chat_id: chat.id, last_active_message_id: id })).rejects.toEqual(
          refused(404, 'Message not found'),
        );
      }
      expect(repo.conversations.get(chat.id)?.lastActiveMessageId).toBe("a1'");
    });

    it('deletes one with its messages; a second delete is 404', async () => {
      const { chat } = branchedChat();
      expect(await service.remove(OWNER, chat.id)).toEqual({ deleted: true });
      expect(repo.messages.size).toBe(0);
      await expect(service.remove(OWNER, chat.id)).rejects.toEqual(refused(404));
    });

    it("lists the caller's visible messages, of the conversations asked for or all", async () => {
      branchedChat();
      repo.seed(
        aConversation({ id: 'second' }),
        aMessage({ id: 'other-chat', chatId: 'second' }),
        aMessage({ id: 'hidden', chatId: 'chat', hidden: true }),
      );
      expect((await service.messages(OWNER, ['second'])).map((m) => m.message_id)).toEqual(['other-chat']);
      expect(await service.messages(OWNER)).toHaveLength(6);
    });
  });

  describe('pages of the active branch', () => {
    const page = (fields: { before?: string; through?: string; limit?: number }, who = OWNER) =>
      service.page(who, { chat_id: 'chat', limit: 50, ...fields });

    it('answers the newest messages of the active branch, oldest first, with the versions of those that have several', async () => {
      branchedChat();
      const first = await page({});
      expect(first.messages.map((m) => m.message_id)).toEqual(['u1', 'a1', 'u2', 'a2']);
      expect(first).toMatchObject({ has_more: false, leaf_id: 'a2' });
      expect(first.versions).toEqual([
        {
          message_id: 'a1',
          versions: [
            { message_id: 'a1', leaf_id: 'a2' },
            { message_id: "a1'", leaf_id: "a1'" },
          ],
        },
      ]);
    });

    it('pages back from a cursor through its ancestors, and says when the branch goes on', async () => {
      branchedChat();
      const newest = await page({ limit: 2 });
      expect(newest.messages.map((m) => m.message_id)).toEqual(['u2', 'a2']);
      expect(newest.has_more).toBe(true);
      const older = await page({ before: 'u2', limit: 2 });
      expect(older.messages.map((m) => m.message_id)).toEqual(['u1', 'a1']);
      expect(older).toMatchObject({ has_more: false, leaf_id: null });
      expect((await page({ before: 'u1' })).messages).toEqual([]);
    });

    it('reads the branch through a message: the active one when it is on it, else down to where it leads', async () => {
      const { chat } = branchedChat();
      // On the active branch: its end, though a1' (not on it) is newer than a1.
      expect((await page({ through: 'u1' })).leaf_id).toBe('a2');
      const lisbon = await page({ through: 'u2' });
      expect(lisbon.messages.map((m) => m.message_id)).toEqual(['u1', 'a1', 'u2', 'a2']);
      expect(lisbon.leaf_id).toBe('a2');
      // Off it: down through the newest child at each step.
      chat.lastActiveMessageId = "a1'";
      expect((await page({ through: 'u2' })).leaf_id).toBe('a2');
      const porto = await page({ through: "a1'" });
      expect(porto.messages.map((m) => m.message_id)).toEqual(['u1', "a1'"]);
      expect(porto.leaf_id).toBe("a1'");
    });

    it("says which reply to the branch's last user message is being written, with its text so far (a live lease only)", async () => {
      const { writing } = questionBeingAnswered();
      const first = await page({});
      expect(first.messages.map((m) => m.message_id)).toEqual(['u1', 'a1', 'u2', 'a2', 'u3']);
      expect(first).toMatchObject({ leaf_id: 'u3', replying: { message_id: 'a3', previous_message_id: 'u3', content: 'Then Sint' } });
      // Not on an older page, nor for a branch that ends with a reply to another message.
      expect((await page({ before: 'u3' })).replying).toBeNull();
      expect((await page({ through: "a1'" })).replying).toBeNull();
      // A lease run out: no process is on it (recovery will mark it incomplete).
      writing.leaseExpiresAt = new Date(Date.now() - 1);
      expect((await page({})).replying).toBeNull();
      // Someone else's conversation is not found, whatever is being written in it.
      await expect(page({}, STRANGER)).rejects.toMatchObject({ status: 404 });
    });

    it('never shows the moment a reply is stored as neither being written nor on the branch: the tree and where the conversation ends are read together', async () => {
      const { chat, writing } = questionBeingAnswered();
      // The reply is stored (and the conversation moved to it, in one statement) after the page looked the conversation up.
      const read = repo.messageTree.bind(repo);
      jest.spyOn(repo, 'messageTree').mockImplementationOnce(async (userId, chatId) => {
        Object.assign(writing, { status: 'complete', leaseExpiresAt: null, content: 'Then Sintra.' });
        repo.conversations.set('chat', Object.assign(Object.create(Object.getPrototypeOf(chat)), chat, { lastActiveMessageId: 'a3' }));
        return read(userId, chatId);
      });
      const first = await page({});
      expect(first).toMatchObject({ leaf_id: 'a3', replying: null });
      expect(first.messages.map((m) => m.message_id)).toEqual(['u1', 'a1', 'u2', 'a2', 'u3', 'a3']);
    });

    it("says which other version of the branch's last reply is being written (a regenerate elsewhere); not on a branch it does not end", async () => {
      branchedChat();
      const again = replyBeingWritten("a2'", 'u2', 'In Ap');
      repo.seed(again);
      const first = await page({});
      // The branch still ends at the stored reply; the one on its way is not among the messages.
      expect(first.messages.map((m) => m.message_id)).toEqual(['u1', 'a1', 'u2', 'a2']);
      expect(first).toMatchObject({ leaf_id: 'a2', replying: { message_id: "a2'", previous_message_id: 'u2', content: 'In Ap' } });
      expect((await page({ through: "a1'" })).replying).toBeNull();
      again.leaseExpiresAt = new Date(Date.now() - 1);
      expect((await page({})).replying).toBeNull();
    });

    it('starts from the newest leaf when the conversation points at no message, and leaves hidden messages out of the page', async () => {
      const { chat, u2 } = branchedChat();
      chat.lastActiveMessageId = null;
      u2.hidden = true;
      const first = await page({});
      expect(first.leaf_id).toBe('a2');
      expect(first.messages.map((m) => m.message_id)).toEqual(['u1', 'a1', 'a2']);
    });

    it("answers 404 for someone else's conversation or message, a message of another conversation, and 400 for both cursors", async () => {
      branchedChat();
      repo.seed(
        aConversation({ id: 'theirs', userId: 'stranger' }),
        aMessage({ id: 'their-message', chatId: 'theirs', userId: 'stranger' }),
        aConversation({ id: 'other' }),
        aMessage({ id: 'other-message', chatId: 'other' }),
      );
      await expect(page({}, STRANGER)).rejects.toEqual(refused(404, 'Conversation not found'));
      await expect(service.page(STRANGER, { chat_id: 'theirs', before: 'u2', limit: 5 })).rejects.toEqual(
        refused(404, 'Message not found'),
      );
      await expect(page({ before: 'their-message' })).rejects.toEqual(refused(404, 'Message not found'));
      await expect(page({ through: 'other-message' })).rejects.toEqual(refused(404, 'Message not found'));
      await expect(page({ before: 'u2', through: 'u1' })).rejects.toEqual(refused(400));
    });
  });

  describe('feedback', () => {
    it('likes and dislikes replies, keeping the reason until the feedback is cleared', async () => {
      const { a2 } = branchedChat();
      expect(await service.feedback(OWNER, { message_id: a2.id, feedback: 'dislike', verbose_feedback: 'Too short' })).toMatchObject({
        feedback: 'dislike',
        metadata: { verbose_feedback: 'Too short', memory_ids: ['m1'] },
      });
      // A new verdict without a reason keeps the one given.
      expect((await service.feedback(OWNER, { message_id: a2.id, feedback: 'like' })).metadata.verbose_feedback).toBe('Too short');
      expect(
        (await service.feedback(OWNER, { message_id: a2.id, feedback: 'like', verbose_feedback: null })).metadata.verbose_feedback,
      ).toBeNull();
      // Clearing the feedback clears its reason, whatever is sent with it.
      await service.feedback(OWNER, { message_id: a2.id, feedback: 'dislike', verbose_feedback: 'Wrong' });
      expect(await service.feedback(OWNER, { message_id: a2.id, feedback: null, verbose_feedback: 'ignored' })).toMatchObject({
        feedback: null,
        metadata: { verbose_feedback: null },
      });
    });

    it("refuses it on the user's own messages (400) and on messages it cannot see (404)", async () => {
      const { u1 } = branchedChat();
      repo.seed(aMessage({ id: 'writing', chatId: 'chat', sender: 'assistant', status: 'streaming' }));
      await expect(service.feedback(OWNER, { message_id: u1.id, feedback: 'like' })).rejects.toEqual(
        refused(400, 'Only replies can be liked or disliked.'),
      );
      await expect(service.feedback(OWNER, { message_id: 'writing', feedback: 'like' })).rejects.toEqual(refused(404, 'Message not found'));
      expect(u1.feedback).toBeNull();
    });
  });

  describe('sharing', () => {
    it('gives one link per conversation until it is revoked, then a new one', async () => {
      const { chat } = branchedChat();
      const first = await service.share(OWNER, chat.id);
      expect(first).toMatchObject({ chat_id: 'chat', url: `/share/${first.share_id}` });
      expect(first.share_id).toMatch(/^[A-Za-z0-9_-]{16}$/);
      expect((await service.share(OWNER, chat.id)).share_id).toBe(first.share_id);
      expect(await service.unshare(OWNER, chat.id)).toEqual({ revoked: true });
      expect(await service.unshare(OWNER, chat.id)).toEqual({ revoked: false });
      await expect(service.shared(first.share_id)).rejects.toEqual(
        refused(404, 'This shared conversation does not exist or is no longer shared.'),
      );
      expect((await service.share(OWNER, chat.id)).share_id).not.toBe(first.share_id);
    });

    it('shows the active branch only, read-only, without hidden messages or private details', async () => {
      const { chat } = branchedChat();
      repo.seed(aMessage({ id: 'hidden', chatId: 'chat', previousMessageId: 'a2', hidden: true }));
      chat.lastActiveMessageId = 'hidden';
      const { share_id } = await service.share(OWNER, chat.id);
      const shared = await service.shared(share_id);
      expect(shared).toMatchObject({ share_id, conversation_title: 'Trip' });
      expect(shared.messages.map((m) => m.message_id)).toEqual(['u1', 'a1', 'u2', 'a2']);
      expect(shared.messages.at(-1)).toMatchObject({ author_user_id: null, feedback: null, metadata: { files: [] } });
      expect(shared.messages.at(-1)!.metadata).not.toHaveProperty('memory_ids');
    });

    it("shows what its owner's page shows when the conversation points at no message (the newest branch), reading only that branch's words", async () => {
      const { chat } = branchedChat();
      chat.lastActiveMessageId = null;
      const { share_id } = await service.share(OWNER, chat.id);
      const whole = jest.spyOn(repo, 'chatMessages');
      const read = jest.spyOn(repo, 'messagesIn');
      expect((await service.shared(share_id)).messages.map((m) => m.message_id)).toEqual(['u1', 'a1', 'u2', 'a2']);
      expect(whole).not.toHaveBeenCalled();
      expect(read.mock.calls.map(([, , ids]) => ids)).toEqual([['u1', 'a1', 'u2', 'a2']]);
      expect(await service.sharedFileAccess(share_id, 'file-u2')).toEqual({ owner_user_id: 'owner' });
      expect(whole).not.toHaveBeenCalled();
    });

    it("is read in pages from its first message: `after` the last one read, `has_more` until the end, only the page's words read", async () => {
      const { chat } = branchedChat();
      repo.seed(aMessage({ id: 'hidden', chatId: 'chat', previousMessageId: 'a2', hidden: true }));
      repo.seed(aMessage({ id: 'u3', chatId: 'chat', previousMessageId: 'hidden', content: 'And then?' }));
      chat.lastActiveMessageId = 'u3';
      const { share_id } = await service.share(OWNER, chat.id);
      const read = jest.spyOn(repo, 'messagesIn');
      const pages: string[][] = [];
      let page = await service.shared(share_id, { limit: 2 });
      pages.push(page.messages.map((m) => m.message_id));
      while (page.has_more) {
        page = await service.shared(share_id, { after: page.messages.at(-1)!.message_id, limit: 2 });
        pages.push(page.messages.map((m) => m.message_id));
      }
      expect(pages).toEqual([['u1', 'a1'], ['u2', 'a2'], ['u3']]);
      expect(read.mock.calls.map(([, , ids]) => ids)).toEqual(pages);
      expect(await service.shared(share_id, { after: 'u3', limit: 2 })).toMatchObject({ messages: [], has_more: false });
      // After a message that is not on the shared branch (another version, a hidden one, another conversation's): not found.
      for (const after of ["a1'", 'hidden', 'elsewhere'])
        await expect(service.shared(share_id, { after, limit: 2 })).rejects.toEqual(refused(404, 'Message not found'));
    });

    it('is gone with its conversation', async () => {
      const { chat } = branchedChat();
      const { share_id } = await service.share(OWNER, chat.id);
      repo.conversations.delete(chat.id);
      await expect(service.shared(share_id)).rejects.toEqual(refused(404));
      await expect(service.shared('never-made')).rejects.toEqual(refused(404));
    });

    it('lets the files service show a file of the shared branch, and no other', async () => {
      const { chat } = branchedChat();
      repo.seed(
        aMessage({
          id: 'side',
          chatId: 'chat',
          previousMessageId: 'a1',
          metadata: { files: [{ object_store_object_id: 'file-side', mime_type: 'image/png' }] },
        }),
      );
      const { share_id } = await service.share(OWNER, chat.id);
      expect(await service.sharedFileAccess(share_id, 'file-u2')).toEqual({ owner_user_id: 'owner' });
      await expect(service.sharedFileAccess(share_id, 'file-side')).rejects.toEqual(refused(404, 'File not found'));
      await expect(service.sharedFileAccess(share_id, 'unknown')).rejects.toEqual(refused(404));
      await service.unshare(OWNER, chat.id);
      await expect(service.sharedFileAccess(share_id, 'file-u2')).rejects.toEqual(refused(404));
    });

    it('does not show the file of a hidden message on the shared branch (the share does not show the message)', async () => {
      const { chat } = branchedChat();
      repo.seed(
        aMessage({
          id: 'hidden',
          chatId: 'chat',
          previousMessageId: 'a2',
          hidden: true,
          metadata: { files: [{ object_store_object_id: 'file-hidden', mime_type: 'image/png' }] },
        }),
      );
      chat.lastActiveMessageId = 'hidden';
      const { share_id } = await service.share(OWNER, chat.id);
      expect((await service.shared(share_id)).messages.map((m) => m.message_id)).not.toContain('hidden');
      await expect(service.sharedFileAccess(share_id, 'file-hidden')).rejects.toEqual(refused(404, 'File not found'));
      expect(await service.sharedFileAccess(share_id, 'file-u2')).toEqual({ owner_user_id: 'owner' });
    });
  });
  describe('owned (for the tts service)', () => {
    it("answers the caller's conversation and a message in it, a reply being written included", async () => {
      branchedChat();
      repo.seed(aMessage({ id: 'writing', chatId: 'chat', sender: 'assistant', status: 'streaming' }));
      expect(await service.owned(OWNER, 'chat')).toEqual({ chat_id: 'chat', message_id: null });
      expect(await service.owned(OWNER, 'chat', 'a2')).toEqual({ chat_id: 'chat', message_id: 'a2' });
      expect(await service.owned(OWNER, 'chat', 'writing')).toEqual({ chat_id: 'chat', message_id: 'writing' });
    });

    it("is a 404 for someone else's conversation, a message of another conversation, or someone else's message", async () => {
      branchedChat();
      repo.seed(
        aConversation({ id: 'other' }),
        aMessage({ id: 'elsewhere', chatId: 'other' }),
        aMessage({ id: 'theirs', chatId: 'chat', userId: 'stranger' }),
      );
      await expect(service.owned(STRANGER, 'chat')).rejects.toEqual(refused(404, 'Conversation not found'));
      await expect(service.owned(STRANGER, 'chat', 'a2')).rejects.toEqual(refused(404));
      await expect(service.owned(OWNER, 'chat', 'elsewhere')).rejects.toEqual(refused(404, 'Message not found'));
      await expect(service.owned(OWNER, 'chat', 'theirs')).rejects.toEqual(refused(404, 'Message not found'));
      await expect(service.owned(OWNER, 'chat', 'missing')).rejects.toEqual(refused(404, 'Message not found'));
    });
  });
});

describe('ConversationsService, temporary chats', () => {
  it('makes a temporary chat that ends after the configured time, listed with its flag (the client leaves it out of the sidebar)', async () => {
    const repo = new FakeChatRepository();
    const service = new ConversationsService(repo, { CHAT_TEMPORARY_CHAT_TTL_SECONDS: 3_600 }, new FakeProjectsRepository(repo));
    const caller = { user_id: 'owner', is_anon: false, session_id: null, request_id: 'r' };
    const before = Date.now();
    const temporary = await service.create(caller, null, false, true);
    const kept = await service.create(caller, 'Kept', false, false);
    expect(temporary.temporary).toBe(true);
    expect(Date.parse(temporary.expires_at!) - before).toBeGreaterThanOrEqual(3_600_000);
    expect(Date.parse(temporary.expires_at!) - before).toBeLessThan(3_660_000);
    expect(kept).toMatchObject({ temporary: false, expires_at: null });
    expect((await service.list(caller)).map((c) => [c.chat_id, c.temporary])).toEqual([
      [kept.chat_id, false],
      [temporary.chat_id, true],
    ]);
    expect((await service.get(caller, temporary.chat_id)).temporary).toBe(true);
    expect(await repo.deleteExpiredConversations(new Date(before + 3_700_000))).toBe(1);
    await expect(service.get(caller, temporary.chat_id)).rejects.toEqual(expect.objectContaining({ status: 404 }));
  });
});

describe('ConversationsService, projects', () => {
  const setup = () => {
    const repo = new FakeChatRepository();
    const projects = new FakeProjectsRepository(repo);
    const service = new ConversationsService(repo, { CHAT_TEMPORARY_CHAT_TTL_SECONDS: 3_600 }, projects);
    projects.seed({ id: 'mine', userId: 'owner' });
    projects.seed({ id: 'theirs', userId: 'stranger' });
    return { repo, projects, service };
  };

  it("moves a conversation into one of its owner's projects and out again, and lists it with its project", async () => {
    const { repo, service } = setup();
    repo.seed(aConversation({ id: 'chat' }));
    expect((await service.update(OWNER, { chat_id: 'chat', project_id: 'mine' })).project_id).toBe('mine');
    expect((await service.list(OWNER)).map((c) => c.project_id)).toEqual(['mine']);
    expect((await service.update(OWNER, { chat_id: 'chat', project_id: null })).project_id).toBeNull();
  });

  it("refuses someone else's project as not found, and someone else's conversation too", async () => {
    const { repo, service } = setup();
    repo.seed(aConversation({ id: 'chat' }), aConversation({ id: 'their-chat', userId: 'stranger' }));
    await expect(service.update(OWNER, { chat_id: 'chat', project_id: 'theirs' })).rejects.toEqual(refused(404, 'Project not found'));
    await expect(service.update(OWNER, { chat_id: 'their-chat', project_id: 'mine' })).rejects.toEqual(refused(404));
    await expect(service.create(OWNER, null, false, false, 'theirs')).rejects.toEqual(refused(404, 'Project not found'));
    expect(repo.conversations.get('chat')!.projectId).toBeNull();
  });

  it('starts a conversation in a project, but never a temporary chat', async () => {
    const { repo, service } = setup();
    expect((await service.create(OWNER, null, false, false, 'mine')).project_id).toBe('mine');
    await expect(service.create(OWNER, null, false, true, 'mine')).rejects.toEqual(refused(400));
    repo.seed(aConversation({ id: 'temp', expiresAt: new Date(Date.now() + 60_000) }));
    await expect(service.update(OWNER, { chat_id: 'temp', project_id: 'mine' })).rejects.toEqual(refused(409));
  });
});
