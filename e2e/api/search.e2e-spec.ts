import { TRANSPORTS } from '@app/testing';
import { strFromU8, unzipSync } from 'fflate';
import { startTestStack, type TestStack } from '../support/test-stack';
import { ApiClient, binary } from '../support/api-client';
import { postStream } from '../support/sse';

interface Hit {
  chat_id: string;
  conversation_title: string | null;
  message_id: string | null;
  sender: string | null;
  snippet: string;
  highlights: { start: number; end: number }[];
  title_highlights: { start: number; end: number }[];
}

const marked = (hit: Hit) => hit.highlights.map((h) => hit.snippet.slice(h.start, h.end));

/** Search over a user's conversations (issue 25, part 1), through the gateway, on both transports, with the offline model. */
describe.each(TRANSPORTS)('conversation search over the %s transport', (transport) => {
  let booted: TestStack;
  let url: string;

  const guest = async () => {
    const api = new ApiClient(url);
    await api.guest();
    return api;
  };
  const chatWith = async (api: ApiClient, content: string, title?: string) => {
    const chatId = (await api.post('/api/v1/chats/', title ? { conversation_title: title } : {}).expect(201)).body.chat_id as string;
    const { events } = await postStream(`${url}/api/v1/chats/${chatId}/messages`, api.token!, { content });
    const message = events.find((e) => e.event === 'user_message')!.data.message_id as string;
    return { chatId, message };
  };
  const search = async (api: ApiClient, q: string) =>
    (await api.get(`/api/v1/chats/search?q=${encodeURIComponent(q)}`).expect(200)).body.results as Hit[];

  beforeAll(async () => {
    booted = await startTestStack('search', transport);
    url = booted.stack.url;
  });
  afterAll(() => booted?.close());

  it('finds a message by a word of it, the match highlighted in its snippet, and points at the message', async () => {
    const api = await guest();
    const { chatId, message } = await chatWith(api, 'My axolotl Pancake eats bloodworms twice a week.');
    await chatWith(api, 'Something else entirely.');
    const hits = await search(api, 'bloodworms');
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ chat_id: chatId, message_id: message, sender: 'user' });
    expect(marked(hits[0])).toEqual(['bloodworms']);
  });

  it('finds words whatever their accents or case, and the word being typed by its beginning', async () => {
    const api = await guest();
    const { message } = await chatWith(api, 'Nous avons pris un CAFÉ crème à Łódź, près de la Straße.');
    for (const q of ['cafe', 'Café', 'creme', 'lodz', 'ŁÓDŹ', 'strasse', 'crè', 'pré']) {
      const hits = await search(api, q);
      expect({ q, found: hits.map((h) => h.message_id) }).toEqual({ q, found: [message] });
    }
    expect(marked((await search(api, 'cafe creme'))[0])).toEqual(['CAFÉ', 'crème']);
    // Every piece is required: the index is read by one of them, the whole query filters its rows.
    expect(await search(api, 'cafe zebra')).toEqual([]);
    expect(await search(api, 'zebra cafe')).toEqual([]);
  });

  it('finds words of other scripts, and parts of sentences written without spaces', async () => {
    const api = await guest();
    const ru = await chatWith(api, 'Привет, как дела в Москве?');
    const ja = await chatWith(api, '昨日は東京タワーに行きました');
    const ko = await chatWith(api, '서울에서 김치를 먹었어요');
    expect((await search(api, 'москв')).map((h) => h.message_id)).toEqual([ru.message]);
    expect((await search(api, '東京')).map((h) => h.message_id)).toEqual([ja.message]);
    expect(marked((await search(api, 'タワー'))[0])).toEqual(['タワー']);
    expect((await search(api, '김치')).map((h) => h.message_id)).toEqual([ko.message]);
    expect(await search(api, '京東')).toEqual([]);
  });

  it('finds codes, dates, versions and hyphenated words as they were written', async () => {
    const api = await guest();
    const { message } = await chatWith(api, 'Ticket OWNED-words-2-0f84ce1a: send the e-mail on 2026-11-26 about v1.2.3 to ana@example.org');
    for (const q of ['OWNED-words-2-0f84ce1a', 'e-mail', '2026-11-26', 'v1.2.3', 'ana@example.org', 'mail', 'ticket owned']) {
      expect({ q, found: (await search(api, q)).map((h) => h.message_id) }).toEqual({ q, found: [message] });
    }
    expect(await search(api, '2026-11-27')).toEqual([]);
  });

  it('reads a common word from the newest messages, and still finds the old matches of a rarer one', async () => {
    const api = await guest();
    const { chatId } = await chatWith(api, 'seed');
    const userId = (await api.get('/api/v1/auth/me').expect(200)).body.user_id as string;
    // 3,000 messages with a common word (PostgreSQL then expects thousands of matches), the oldest also with a rare one.
    await booted.db.query(
      `INSERT INTO chat.message (id, chat_id, user_id, sender, content, created_at)
       SELECT gen_random_uuid(), $1, $2, 'user', 'commonword number ' || i || CASE WHEN i <= 3 THEN ' oldrareword' ELSE '' END,
              now() - make_interval(mins => i)
       FROM generate_series(1, 3000) AS i`,
      [chatId, userId],
    );
    await booted.db.query('ANALYZE chat.message');
    const common = (await api.get('/api/v1/chats/search?q=commonword').expect(200)).body.results as Hit[];
    expect(common).toHaveLength(1);
    expect(common[0].snippet).toMatch(/^commonword number \d+$/);
    expect(Number(common[0].snippet.split(' ')[2])).toBeLessThanOrEqual(200);
    const both = await search(api, 'commonword oldrareword');
    expect(both).toHaveLength(1);
    expect(both[0].snippet).toMatch(/^commonword number [123] oldrareword$/);
    // Titles too: 600 conversations named alike, read newest first; the oldest found by a rarer word.
    await booted.db.query(
      `INSERT INTO chat.conversation (id, user_id, title, last_message_at)
       SELECT gen_random_uuid(), $1, 'commontitle ' || i || CASE WHEN i = 600 THEN ' oldesttitle' ELSE '' END, now() - make_interval(mins => i)
       FROM generate_series(1, 600) AS i`,
      [userId],
    );
    await booted.db.query('ANALYZE chat.conversation');
    const titles = (await api.get('/api/v1/chats/search?q=commontitle&limit=50').expect(200)).body.results as Hit[];
    expect(titles).toHaveLength(50);
    expect(titles.every((t) => t.message_id === null && t.conversation_title!.startsWith('commontitle'))).toBe(true);
    expect((await search(api, 'commontitle oldesttitle')).map((t) => t.conversation_title)).toEqual(['commontitle 600 oldesttitle']);
  });

  it('finds conversations by their title first, then messages', async () => {
    const api = await guest();
    const titled = await chatWith(api, 'Some words here.', 'Holiday in Lisbon');
    const inside = await chatWith(api, 'What should I pack for Lisbon in May?');
    const hits = await search(api, 'lisbon');
    expect(hits[0]).toMatchObject({ chat_id: titled.chatId, message_id: null, snippet: 'Holiday in Lisbon' });
    expect(hits[0].title_highlights).toEqual([{ start: 11, end: 17 }]);
    expect(hits.map((h) => h.message_id)).toContain(inside.message);
  });

  it("never finds another user's words, nor a deleted conversation's", async () => {
    const owner = await guest();
    const other = await guest();
    const { chatId } = await chatWith(owner, 'The secret word is zanzibarquokka.');
    expect(await search(other, 'zanzibarquokka')).toEqual([]);
    expect(await search(owner, 'zanzibarquokka')).toHaveLength(1);
    await owner.delete(`/api/v1/chats/${chatId}`).expect(204);
    expect(await search(owner, 'zanzibarquokka')).toEqual([]);
  });

  it('answers punctuation alone with nothing, an empty or too long query with 422, and no token with 401', async () => {
    const api = await guest();
    expect(await search(api, "'&|!:*()")).toEqual([]);
    expect((await api.get('/api/v1/chats/search?q=').expect(422)).body.detail).toMatch(/q/);
    await api.get(`/api/v1/chats/search?q=${'a'.repeat(201)}`).expect(422);
    await api.get('/api/v1/chats/search?q=x&limit=500').expect(422);
    await new ApiClient(url).http.get('/api/v1/chats/search?q=x').expect(401);
  });

  it('leaves the search index out of the export', async () => {
    const api = await guest();
    await chatWith(api, 'Export me', 'Exported');
    const zip = await binary(api.get('/api/v1/users/me/export'));
    const chat = JSON.parse(strFromU8(unzipSync(new Uint8Array(zip.body as Buffer))['chat.json']));
    expect(chat.conversation[0]).not.toHaveProperty('search');
    expect(chat.message[0]).not.toHaveProperty('search');
    expect(chat.message.map((m: { content: string }) => m.content)).toContain('Export me');
  });
});
