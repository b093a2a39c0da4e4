import { randomUUID } from 'node:crypto';
import type { Caller } from '@app/contracts';
import { Outbox, type Bus } from '@app/platform';
import { serviceDatabase, type ServiceDatabase } from '@app/testing';
import { ChatRepository } from '../conversations/chat.repository';
import { ConversationEntity } from '../conversations/conversation.entity';
import { MessageEntity } from '../conversations/message.entity';
import { chatMigrations } from '../migrations';
import { ProjectEntity } from '../projects/project.entity';
import { ShareEntity } from '../conversations/share.entity';
import { ConversationSearchRepository } from './conversation-search.repository';
import { ConversationSearchService } from './conversation-search.service';

const log = { warn: () => undefined, error: () => undefined };
const callerOf = (userId: string): Caller => ({ user_id: userId, is_anon: false, session_id: null, request_id: 'r' });

/**
 * The conversation search's SQL against the real PostgreSQL (its owner-keyed words, its text
 * search configuration, both read paths), through the service: a user finds their own words only,
 * accents and case aside, by a prefix, in other scripts, every word required, titles first,
 * temporary chats never.
 */
describe('conversation search on PostgreSQL', () => {
  let db: ServiceDatabase;
  let chats: ChatRepository;
  let search: ConversationSearchService;
  const alice = randomUUID();
  const bob = randomUUID();

  beforeAll(async () => {
    db = await serviceDatabase({
      label: 'convsearch',
      schema: 'chat',
      entities: [ProjectEntity, ConversationEntity, MessageEntity, ShareEntity],
      migrations: chatMigrations,
    });
    chats = new ChatRepository(db.source, new Outbox(db.source, {} as Bus, log));
    search = new ConversationSearchService(new ConversationSearchRepository(db.source));
  });

  afterAll(() => db?.drop());

  async function conversation(userId: string, title: string | null, texts: string[], fields: { expiresAt?: Date } = {}) {
    const c = await chats.createConversation(chats.newConversation({ id: randomUUID(), userId, title, ...fields }));
    let previous: string | null = null;
    const ids: string[] = [];
    for (const text of texts) {
      const message = chats.newMessage({
        id: randomUUID(),
        chatId: c.id,
        userId,
        sender: 'user',
        authorUserId: userId,
        expertId: null,
        expertName: null,
        content: text,
        previousMessageId: previous,
        metadata: {},
      });
      const reply = chats.newMessage({ ...message, id: randomUUID(), sender: 'assistant', authorUserId: null, content: '' });
      const started = await chats.addMessageWithReply(message, reply, 60_000);
      if (started.missing) throw new Error(`The ${started.missing} was not found`);
      await chats.finishReply(Object.assign(started.reply, { content: 'Noted.', status: 'complete' as const }), c.id, null);
      ids.push(message.id);
      previous = started.reply.id;
    }
    return { id: c.id, ids };
  }

  const found = async (userId: string, q: string) => (await search.search(callerOf(userId), { q, limit: 20 })).results;

  it("finds the user's own words, accents and case aside, and never another user's", async () => {
    const mine = await conversation(alice, null, ['We met at the Café Brasileira in Lisbon']);
    await conversation(bob, null, ['Bob also likes the cafe brasileira']);

    const results = await found(alice, 'cafe BRASILEIRA');
    expect(results.map((r) => [r.chat_id, r.message_id])).toEqual([[mine.id, mine.ids[0]]]);
    expect(results[0].snippet).toContain('Café Brasileira');
    expect(results[0].highlights.length).toBeGreaterThan(0);
    expect((await found(bob, 'brasileira')).map((r) => r.chat_id)).not.toContain(mine.id);
  });

  it('matches the word being typed by its prefix, and requires every word', async () => {
    const c = await conversation(alice, null, ['A recipe for buckwheat porridge']);
    expect((await found(alice, 'buckwh')).map((r) => r.chat_id)).toContain(c.id);
    expect((await found(alice, 'porridge recip')).map((r) => r.chat_id)).toContain(c.id);
    expect((await found(alice, 'porridge lisbon')).map((r) => r.chat_id)).not.toContain(c.id);
  });

  it('finds whole words of other scripts whose letters carry marks (й, ё, dakuten, vowel signs), and text without spaces', async () => {
    const cyrillic = await conversation(alice, null, ['Рецепт гречневой каши, ёлка']);
    const japanese = await conversation(alice, null, ['東京のガス料金はどうですか']);
    const hindi = await conversation(alice, null, ['मुझे हिंदी पसंद है']);
    const greek = await conversation(alice, null, ['Καλημέρα από την Αθήνα']);
    expect((await found(alice, 'гречневой')).map((r) => r.chat_id)).toEqual([cyrillic.id]);
    expect((await found(alice, 'елка')).map((r) => r.chat_id)).toEqual([cyrillic.id]);
    expect((await found(alice, '東京')).map((r) => r.chat_id)).toEqual([japanese.id]);
    expect((await found(alice, 'ガス')).map((r) => r.chat_id)).toEqual([japanese.id]);
    expect((await found(alice, 'हिंदी')).map((r) => r.chat_id)).toEqual([hindi.id]);
    expect((await found(alice, 'αθηνα')).map((r) => r.chat_id)).toEqual([greek.id]);
  });

  it('ranks a title match first, and leaves temporary chats out', async () => {
    const titled = await conversation(alice, 'Kayak trip planning', ['Which river?']);
    const inside = await conversation(alice, null, ['I bought a kayak paddle']);
    await conversation(alice, null, ['Kayak rental prices'], { expiresAt: new Date(Date.now() + 3_600_000) });

    const results = await found(alice, 'kayak');
    expect(results.map((r) => r.chat_id)).toEqual([titled.id, inside.id]);
    expect(results[0]).toMatchObject({ conversation_title: 'Kayak trip planning' });
  });

  it('says which project a result is in, matched by its title or by a message', async () => {
    const projectId = randomUUID();
    await db.source.query("INSERT INTO project (id, user_id, name) VALUES ($1, $2, 'Garden')", [projectId, alice]);
    const titled = await conversation(alice, 'Tomato seedlings', ['When to plant?']);
    const inside = await conversation(alice, null, ['My tomato plants wilt']);
    const loose = await conversation(alice, 'Tomato soup', []);
    await db.source.query('UPDATE conversation SET project_id = $1 WHERE id = ANY($2)', [projectId, [titled.id, inside.id]]);
    const results = await found(alice, 'tomato');
    expect(new Map(results.map((r) => [r.chat_id, r.project_id]))).toEqual(
      new Map([
        [titled.id, projectId],
        [inside.id, projectId],
        [loose.id, null],
      ]),
    );
  });

  it('answers nothing for a query without a word, and survives operators and quotes as text', async () => {
    expect(await found(alice, '   !!! ')).toEqual([]);
    await expect(found(alice, "kayak & ! | ' ( :*")).resolves.toBeInstanceOf(Array);
    await expect(found(alice, '"trip planning"')).resolves.toEqual([
      expect.objectContaining({ conversation_title: 'Kayak trip planning' }),
    ]);
  });
});
