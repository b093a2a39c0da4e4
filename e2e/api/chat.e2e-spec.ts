import { randomUUID } from 'node:crypto';
import type { EmbeddedStack } from '@app/embedded';
import { FakeOpenAI, fakePng, TRANSPORTS } from '@app/testing';
import { strFromU8, unzipSync } from 'fflate';
import { Client } from 'pg';
import { startTestStack, type TestStack } from '../support/test-stack';
import { ApiClient, binary, eventually } from '../support/api-client';
import { postStream, postStreamAndHangUp, type SseEvent } from '../support/sse';

const texts = (events: SseEvent[]) =>
  events
    .filter((e) => e.event === 'text')
    .map((e) => e.data.delta)
    .join('');
const names = (events: SseEvent[]) => events.map((e) => e.event);
const DAILY_LIMIT = 8;

/**
 * Conversations and streamed replies through the gateway, on both transports, with the model
 * played by a scripted fake of the OpenAI API driven through the real `openai` SDK.
 */
describe.each(TRANSPORTS)('conversations and streamed replies over the %s transport', (transport) => {
  let stack: EmbeddedStack;
  let db: Client;
  let booted: TestStack;
  const openai = new FakeOpenAI({ apiKey: 'sk-test-key' });

  const guest = async () => {
    const api = new ApiClient(stack.url);
    await api.guest();
    return api;
  };
  const newChat = async (api: ApiClient) => (await api.post('/api/v1/chats/', {}).expect(201)).body.chat_id as string;
  /**
   * Messages written straight into a conversation as one chain (the user's and the assistant's in
   * turn, a millisecond apart), which then ends at the last: their ids, and the conversation's owner.
   */
  const writeChain = async (chatId: string, contents: string[]) => {
    const [{ user_id: userId }] = (await db.query('SELECT user_id FROM chat.conversation WHERE id = $1', [chatId])).rows;
    const ids = contents.map(() => randomUUID());
    await db.query(
      `INSERT INTO chat.message (id, chat_id, user_id, sender, content, previous_message_id, created_at)
       SELECT id, $1, $2, CASE WHEN n % 2 = 1 THEN 'user' ELSE 'assistant' END, content,
              CASE WHEN n = 1 THEN NULL ELSE ($3::uuid[])[n - 1] END, now() + n * interval '1 millisecond'
       FROM unnest($3::uuid[], $4::text[]) WITH ORDINALITY AS m(id, content, n)`,
      [chatId, userId, ids, contents],
    );
    await db.query('UPDATE chat.conversation SET last_active_message_id = $2 WHERE id = $1', [chatId, ids.at(-1)]);
    return { ids, userId: userId as string };
  };
  const send = (api: ApiClient, chatId: string, body: object) =>
    postStream(`${stack.url}/api/v1/chats/${chatId}/messages`, api.token!, body);
  /**
   * The conversation's title, once the chat has made it after the exchange. A test that ends on a
   * complete exchange waits for it, so that the title's call to the model cannot take the next
   * test's scripted reply.
   */
  const titled = (api: ApiClient, chatId: string) =>
    eventually(async () => ((await api.get(`/api/v1/chats/${chatId}`)).body.conversation_title as string | null) ?? undefined);

  beforeAll(async () => {
    await openai.start();
    booted = await startTestStack('chat', transport, {
      LLM_PROVIDER: 'openai',
      OPENAI_API_KEY: 'sk-test-key',
      OPENAI_BASE_URL: openai.baseURL,
      CHAT_FAST_MODEL: 'fast-model',
      CHAT_REASONING_MODEL: 'thinking-model',
      LLM_STALL_TIMEOUT_MS: '1500',
      CHAT_GUEST_DAILY_LIMIT: String(DAILY_LIMIT),
    });
    ({ stack, db } = booted);
  });

  afterAll(async () => {
    await booted?.close();
    await openai.stop();
  });

  beforeEach(() => openai.reset());

  it('creates, lists (newest first), renames and deletes conversations', async () => {
    const api = await guest();
    await api.get('/api/v1/chats/').expect(200, []);
    const first = await newChat(api);
    const second = (await api.post('/api/v1/chats/', { conversation_title: 'Garden' }).expect(201)).body;
    expect(second).toMatchObject({
      conversation_title: 'Garden',
      last_message_timestamp: null,
      last_active_message_id: null,
      is_commercial: false,
    });
    await send(api, first, { content: 'hello' });
    await titled(api, first);
    expect((await api.get('/api/v1/chats/').expect(200)).body.map((c: { chat_id: string }) => c.chat_id)).toEqual([first, second.chat_id]);
    await api
      .auth(api.http.patch(`/api/v1/chats/${second.chat_id}`))
      .send({ conversation_title: 'Vegetables' })
      .expect(200);
    await api
      .auth(api.http.patch(`/api/v1/chats/${second.chat_id}`))
      .send({})
      .expect(422);
    await api.delete(`/api/v1/chats/${second.chat_id}`).expect(204);
    await api.delete(`/api/v1/chats/${second.chat_id}`).expect(404, { detail: 'Conversation not found' });
    expect((await api.get('/api/v1/chats/')).body).toHaveLength(1);
  });

  it('stores the message, streams the reply in order, stores it with its metadata, and titles the conversation', async () => {
    openai.script('responses', [{ text: 'Lisbon is lovely in spring.' }]);
    const api = await guest();
    const chatId = await newChat(api);
    const { status, events, headers } = await send(api, chatId, { content: 'Where should I go in April?' });
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(names(events).slice(0, 3)).toEqual(['user_message', 'phase', 'phase']);
    expect(events[1].data).toEqual({ phase: 'personalizing' });
    expect(events[2].data).toEqual({ phase: 'thinking' });
    expect(names(events).slice(-2)).toEqual(['assistant_message', 'done']);
    expect(texts(events)).toBe('Lisbon is lovely in spring.');
    const reply = events.find((e) => e.event === 'assistant_message')!.data;
    const request = openai.requests('responses')[0];
    expect(reply).toMatchObject({
      content: 'Lisbon is lovely in spring.',
      sender: 'assistant',
      expert_id: 'assistant',
      expert_name: 'Assistant',
      previous_message_id: events[0].data.message_id,
      metadata: { provider: 'openai', model: 'fast-model', auto_selected: true, provider_request_id: request.requestId, memory_ids: [] },
    });
    expect(request.headers.authorization).toBe('Bearer sk-test-key');
    expect(request.body).toMatchObject({
      model: 'fast-model',
      stream: true,
      input: [{ role: 'user', content: 'Where should I go in April?' }],
    });
    const conversation = (await api.get(`/api/v1/chats/${chatId}`).expect(200)).body;
    expect(conversation.last_active_message_id).toBe(reply.message_id);
    // The title is made after the exchange (by the chat's consumer of its completed event): `done` does not wait for it.
    expect(await titled(api, chatId)).toEqual(expect.any(String));
    expect(conversation.messages.map((m: { content: string }) => m.content)).toEqual([
      'Where should I go in April?',
      'Lisbon is lovely in spring.',
    ]);
  });

  it('streams reasoning, the search phase and partial images, choosing the reasoning model for a hard question', async () => {
    openai.script('responses', [
      { reasoning: 'Weighing options.' },
      { webSearch: { query: 'lisbon weather' } },
      { text: 'Here it is.' },
      { image: { partials: 3 } },
    ]);
    const api = await guest();
    const { events } = await send(api, await newChat(api), { content: 'Prove step by step that the trip is worth it' });
    expect(
      events
        .filter((e) => e.event === 'reasoning')
        .map((e) => e.data.delta)
        .join(''),
    ).toBe('Weighing options.');
    expect(events.filter((e) => e.event === 'phase').map((e) => e.data.phase)).toEqual([
      'personalizing',
      'thinking',
      'searching',
      'thinking',
    ]);
    const images = events.filter((e) => e.event === 'image_partial');
    expect(images.map((e) => e.data.index)).toEqual([0, 1, 2]);
    expect(images[0].data.data_url).toMatch(/^data:image\/png;base64,/);
    // The final image is stored by the files service and referenced like an attachment.
    const image = events.find((e) => e.event === 'image')!.data;
    expect(image).toEqual({ object_store_object_id: expect.any(String), mime_type: 'image/png' });
    const reply = events.find((e) => e.event === 'assistant_message')!.data;
    expect(reply.metadata).toMatchObject({ model: 'thinking-model', reasoning: 'Weighing options.', files: [image] });
    const presigned = await api.get(`/api/v1/files/presigned/${image.object_store_object_id}`).expect(200);
    expect(presigned.body.preview_data_url).toMatch(/^data:image\//);
    expect(openai.requests('responses')[0].body).toMatchObject({ reasoning: { summary: 'auto' } });
  });

  it("shows attached images and documents to the model, and refuses files that are not the sender's", async () => {
    const api = await guest();
    const chatId = await newChat(api);
    const upload = async (bytes: Buffer, filename: string, contentType: string) =>
      (await api.auth(api.http.post('/api/v1/files/')).attach('file', bytes, { filename, contentType }).expect(201)).body;
    const png = await upload(fakePng([10, 200, 30], 8), 'leaf.png', 'image/png');
    const note = await upload(Buffer.from('Shopping list: basil, tomatoes, olive oil.'), 'list.txt', 'text/plain');
    const { events } = await send(api, chatId, {
      content: 'What do you see?',
      files: [png, note].map((f) => ({ object_store_object_id: f.object_store_object_id, mime_type: f.mime_type })),
    });
    expect(events[0].data.metadata.files).toEqual([
      { object_store_object_id: png.object_store_object_id, mime_type: 'image/png' },
      { object_store_object_id: note.object_store_object_id, mime_type: 'text/plain' },
    ]);
    const input = openai.requests('responses').find((r) => r.stream)!.body.input as { role: string; content: unknown }[];
    const parts = input.at(-1)!.content as { type: string; text?: string; image_url?: string }[];
    expect(parts.map((p) => p.type)).toEqual(['input_text', 'input_text', 'input_image']);
    expect(parts[0].text).toContain('Shopping list: basil');
    expect(parts[1].text).toBe('What do you see?');
    expect(parts[2].image_url).toMatch(/^data:image\//);
    await titled(api, chatId);

    const other = await guest();
    const stolen = await send(other, await newChat(other), {
      content: 'Mine now',
      files: [{ object_store_object_id: png.object_store_object_id, mime_type: 'image/png' }],
    });
    expect(stolen).toMatchObject({ status: 404, json: { detail: `File not found: ${png.object_store_object_id}` } });
  });

  it('ends with an error event when the model fails mid-stream, keeping what came as an incomplete reply', async () => {
    openai.script('responses', [{ text: 'Half an ans' }, { fail: { message: 'overloaded' } }]);
    const api = await guest();
    const chatId = await newChat(api);
    const { events } = await send(api, chatId, { content: 'Tell me everything' });
    expect(names(events).slice(-3)).toEqual(['assistant_message', 'error', 'done']);
    expect(events.at(-2)!.data.detail).toBe('The model failed: overloaded');
    const stored = (await api.get(`/api/v1/messages/all_user_messages?chat_ids=${chatId}`)).body;
    expect(stored.at(-1)).toMatchObject({ content: 'Half an ans', metadata: { incomplete: true } });
  });

  it('cuts a stalled model short', async () => {
    openai.script('responses', [{ text: 'Starting' }, { stall: true }]);
    const api = await guest();
    const chatId = await newChat(api);
    const { events } = await send(api, chatId, { content: 'Go on' });
    expect(events.find((e) => e.event === 'error')!.data.detail).toBe('The model stopped answering.');
    expect(events.find((e) => e.event === 'assistant_message')!.data).toMatchObject({
      content: 'Starting',
      metadata: { incomplete: true },
    });
  });

  it('keeps generating and stores the reply when the browser hangs up', async () => {
    openai.script('responses', { steps: [{ text: 'one two three four five six seven eight' }], intervalMs: 60 });
    const api = await guest();
    const chatId = await newChat(api);
    const seen = await postStreamAndHangUp(
      `${stack.url}/api/v1/chats/${chatId}/messages`,
      api.token!,
      { content: 'Count' },
      (e) => e.event === 'text',
    );
    expect(seen.some((e) => e.event === 'assistant_message')).toBe(false);
    const reply = await eventually(async () => {
      const messages = (await api.get(`/api/v1/messages/all_user_messages?chat_ids=${chatId}`)).body as {
        sender: string;
        content: string;
      }[];
      return messages.find((m) => m.sender === 'assistant');
    });
    expect(reply.content).toBe('one two three four five six seven eight');
    await titled(api, chatId);
  });

  it('a page read while a reply is being written says so, with its text so far, until it is stored', async () => {
    openai.script('responses', [{ text: 'Starting' }, { stall: true }]);
    const api = await guest();
    const chatId = await newChat(api);
    // The writer's stream is gone (a tab closed, a page left): the reply goes on without it.
    await postStreamAndHangUp(`${stack.url}/api/v1/chats/${chatId}/messages`, api.token!, { content: 'Go on' }, (e) => e.event === 'text');
    type Page = {
      messages: { message_id: string; sender: string; content: string }[];
      leaf_id: string | null;
      replying: { message_id: string; previous_message_id: string; content: string } | null;
    };
    const read = async () => (await api.get(`/api/v1/chats/${chatId}/messages`).expect(200)).body as Page;
    /** The page once no reply is being written any more (the one on its way stored). */
    const stored = () =>
      eventually(async () => {
        const page = await read();
        return page.replying === null ? page : undefined;
      }, 30_000);
    const during = await read();
    expect(during.messages.map((m) => m.sender)).toEqual(['user']);
    expect(during.leaf_id).toBe(during.messages[0].message_id);
    expect(during.replying).not.toBeNull();
    expect(during.replying!.previous_message_id).toBe(during.leaf_id);
    expect('Starting'.startsWith(during.replying!.content)).toBe(true);
    // An older page, or the page of the branch through another message, never says it.
    expect((await api.get(`/api/v1/chats/${chatId}/messages?before=${during.leaf_id}`).expect(200)).body.replying).toBeNull();
    // Once stored (cut short by the stalled model), the page has the reply under the same id.
    const after = await stored();
    expect(after.messages.map((m) => m.message_id)).toEqual([during.leaf_id, during.replying!.message_id]);
    expect(after.messages[1].content).toBe('Starting');

    // Another version asked for by a stream that is then gone (a regenerate in another tab): the
    // branch still ends at the stored reply, and the page says the new one is on its way to the question.
    openai.script('responses', [{ text: 'Again' }, { stall: true }]);
    const first = after.messages[1].message_id;
    await postStreamAndHangUp(`${stack.url}/api/v1/messages/${first}/regenerate`, api.token!, {}, (e) => e.event === 'text');
    const regenerating = await read();
    expect(regenerating.leaf_id).toBe(first);
    expect(regenerating.messages.map((m) => m.message_id)).toEqual([during.leaf_id, first]);
    expect(regenerating.replying).toMatchObject({ previous_message_id: during.leaf_id });
    expect(regenerating.replying!.message_id).not.toBe(first);
    const regenerated = await stored();
    expect(regenerated.messages.map((m) => m.message_id)).toEqual([during.leaf_id, regenerating.replying!.message_id]);
    expect(regenerated.messages[1].content).toBe('Again');
  });

  it('stops a reply on request, keeping what came', async () => {
    openai.script('responses', { steps: [{ text: 'a b c d e f g h i j k l m n o p' }], intervalMs: 100 });
    const api = await guest();
    const chatId = await newChat(api);
    const streaming = send(api, chatId, { content: 'Slowly' });
    const userMessage = await eventually(async () => {
      const messages = (await api.get(`/api/v1/messages/all_user_messages?chat_ids=${chatId}`)).body as {
        message_id: string;
        sender: string;
      }[];
      return messages.find((m) => m.sender === 'user');
    });
    await new Promise((r) => setTimeout(r, 300));
    await api.post(`/api/v1/messages/${userMessage.message_id}/stop`).expect(200, { stopped: true });
    const { events } = await streaming;
    expect(events.find((e) => e.event === 'error')!.data.detail).toBe('The reply was stopped.');
    const reply = events.find((e) => e.event === 'assistant_message')!.data;
    expect(reply.metadata.incomplete).toBe(true);
    expect(reply.content.length).toBeGreaterThan(0);
    expect(reply.content.length).toBeLessThan('a b c d e f g h i j k l m n o p'.length);
  });

  it('branches: edits and regenerations make siblings, the active history follows, and can be switched', async () => {
    const api = await guest();
    const chatId = await newChat(api);
    const a = await send(api, chatId, { content: 'A' });
    const b = await send(api, chatId, { content: 'B' });
    const userA = a.events[0].data;
    const replyA = a.events.find((e) => e.event === 'assistant_message')!.data;
    const userB = b.events[0].data;
    const replyB = b.events.find((e) => e.event === 'assistant_message')!.data;
    expect(userB.previous_message_id).toBe(replyA.message_id);
    // Edit A: a new first message (previous null), a new branch from the root.
    const edited = await send(api, chatId, { content: 'A, edited', previous_message_id: null });
    expect(edited.events[0].data.previous_message_id).toBeNull();
    const replyEdited = edited.events.find((e) => e.event === 'assistant_message')!.data;
    expect((await api.get(`/api/v1/chats/${chatId}`)).body.last_active_message_id).toBe(replyEdited.message_id);
    // Switch back to the first branch's end.
    await api
      .auth(api.http.patch(`/api/v1/chats/${chatId}`))
      .send({ last_active_message_id: replyB.message_id })
      .expect(200);
    // Regenerate B's reply: a sibling of it, after B.
    const again = await postStream(`${stack.url}/api/v1/messages/${replyB.message_id}/regenerate`, api.token!);
    expect(again.events[0].data.message_id).toBe(userB.message_id);
    const replyB2 = again.events.find((e) => e.event === 'assistant_message')!.data;
    expect(replyB2.previous_message_id).toBe(userB.message_id);
    expect(replyB2.message_id).not.toBe(replyB.message_id);
    const conversation = (await api.get(`/api/v1/chats/${chatId}`)).body;
    expect(conversation.last_active_message_id).toBe(replyB2.message_id);
    expect(conversation.messages).toHaveLength(7);
    // Paged: the newest of the active branch first, each message of several versions with where each leads.
    const pageOf = (query: string) => api.get(`/api/v1/chats/${chatId}/messages${query}`).expect(200);
    const newest = (await pageOf('?limit=2')).body;
    expect(newest.messages.map((m: { content: string }) => m.content)).toEqual(['B', replyB2.content]);
    expect(newest).toMatchObject({ has_more: true, leaf_id: replyB2.message_id });
    expect(newest.versions).toEqual([
      {
        message_id: replyB2.message_id,
        versions: [
          { message_id: replyB.message_id, leaf_id: replyB.message_id },
          { message_id: replyB2.message_id, leaf_id: replyB2.message_id },
        ],
      },
    ]);
    const older = (await pageOf(`?limit=2&before=${userB.message_id}`)).body;
    expect(older.messages.map((m: { message_id: string }) => m.message_id)).toEqual([userA.message_id, replyA.message_id]);
    expect(older).toMatchObject({ has_more: false, leaf_id: null });
    expect(older.versions[0].versions).toEqual([
      { message_id: userA.message_id, leaf_id: replyB2.message_id },
      { message_id: edited.events[0].data.message_id, leaf_id: replyEdited.message_id },
    ]);
    // The whole branch without parameters' limit (50), and the branch through a message of another one.
    expect((await pageOf('')).body.messages).toHaveLength(4);
    const other = (await pageOf(`?through=${edited.events[0].data.message_id}`)).body;
    expect(other.messages.map((m: { content: string }) => m.content)).toEqual(['A, edited', replyEdited.content]);
    expect(other.leaf_id).toBe(replyEdited.message_id);
    // The model saw the active history of the branch: A, reply A, B.
    const lastRequest = openai
      .requests('responses')
      .filter((r: { stream: boolean }) => r.stream)
      .at(-1)!;
    expect((lastRequest.body.input as { content: string }[]).map((t) => t.content)).toEqual(['A', replyA.content, 'B']);
    await api
      .auth(api.http.patch(`/api/v1/chats/${chatId}`))
      .send({ last_active_message_id: randomUUID() })
      .expect(404, { detail: 'Message not found' });
    expect(userA.sender).toBe('user');
  });

  it('records likes and dislikes with verbose feedback, on replies only', async () => {
    const api = await guest();
    const chatId = await newChat(api);
    const { events } = await send(api, chatId, { content: 'Rate me' });
    const reply = events.find((e) => e.event === 'assistant_message')!.data;
    const liked = await api
      .auth(api.http.put(`/api/v1/messages/${reply.message_id}/feedback`))
      .send({ feedback: 'like' })
      .expect(200);
    expect(liked.body.feedback).toBe('like');
    const disliked = await api
      .auth(api.http.put(`/api/v1/messages/${reply.message_id}/feedback`))
      .send({ feedback: 'dislike', verbose_feedback: 'Too short' })
      .expect(200);
    expect(disliked.body).toMatchObject({ feedback: 'dislike', metadata: { verbose_feedback: 'Too short' } });
    await api
      .auth(api.http.put(`/api/v1/messages/${reply.message_id}/feedback`))
      .send({ feedback: 'meh' })
      .expect(422);
    await api
      .auth(api.http.put(`/api/v1/messages/${events[0].data.message_id}/feedback`))
      .send({ feedback: 'like' })
      .expect(400, { detail: 'Only replies can be liked or disliked.' });
    const cleared = await api
      .auth(api.http.put(`/api/v1/messages/${reply.message_id}/feedback`))
      .send({ feedback: null })
      .expect(200);
    expect(cleared.body).toMatchObject({ feedback: null, metadata: { verbose_feedback: null } });
  });

  it('shares a conversation read-only, without private details, until the share is revoked', async () => {
    const api = await guest();
    const chatId = await newChat(api);
    await send(api, chatId, { content: 'Share this' });
    const share = (await api.post(`/api/v1/chats/${chatId}/share`).expect(201)).body;
    expect(share).toMatchObject({ chat_id: chatId, url: `/share/${share.share_id}` });
    expect((await api.post(`/api/v1/chats/${chatId}/share`).expect(201)).body.share_id).toBe(share.share_id);
    const shared = (await api.http.get(`/api/v1/shared/${share.share_id}`).expect(200)).body;
    expect(shared.messages.map((m: { content: string }) => m.content)[0]).toBe('Share this');
    expect(
      shared.messages.every(
        (m: { author_user_id: unknown; metadata: object }) => m.author_user_id === null && !('memory_ids' in m.metadata),
      ),
    ).toBe(true);
    await api.delete(`/api/v1/chats/${chatId}/share`).expect(200, { revoked: true });
    await api.http
      .get(`/api/v1/shared/${share.share_id}`)
      .expect(404, { detail: 'This shared conversation does not exist or is no longer shared.' });
    await api.http.get('/api/v1/shared/nope').expect(404);
  });

  it('reads a share in pages from its first message, to its end; a cursor off the shared branch or a bad page size is refused', async () => {
    const api = await guest();
    const chatId = await newChat(api);
    // 120 messages in a chain, and another version of the first reply (not on the shared branch).
    const { ids, userId } = await writeChain(
      chatId,
      Array.from({ length: 120 }, (_, i) => `message ${i + 1}`),
    );
    const aside = randomUUID();
    await db.query(
      `INSERT INTO chat.message (id, chat_id, user_id, sender, content, previous_message_id) VALUES ($3, $1, $2, 'assistant', 'aside', $4)`,
      [chatId, userId, aside, ids[0]],
    );
    const share = (await api.post(`/api/v1/chats/${chatId}/share`).expect(201)).body as { share_id: string };
    type Page = { messages: { message_id: string; content: string }[]; has_more: boolean; conversation_title: string | null };
    const read: string[] = [];
    const sizes: number[] = [];
    let page = (await api.http.get(`/api/v1/shared/${share.share_id}`).expect(200)).body as Page;
    for (;;) {
      read.push(...page.messages.map((m) => m.message_id));
      sizes.push(page.messages.length);
      if (!page.has_more) break;
      page = (await api.http.get(`/api/v1/shared/${share.share_id}?after=${page.messages.at(-1)!.message_id}`).expect(200)).body as Page;
    }
    expect(sizes).toEqual([50, 50, 20]); // the default page: 50
    expect(read).toEqual(ids);
    const small = (await api.http.get(`/api/v1/shared/${share.share_id}?limit=7&after=${ids[9]}`).expect(200)).body as Page;
    expect(small.messages.map((m) => m.message_id)).toEqual(ids.slice(10, 17));
    expect(small.has_more).toBe(true);

    // Off the branch (another version), another conversation's message, an unknown id: not found.
    const other = await newChat(api);
    await send(api, other, { content: 'Elsewhere' });
    const [{ id: elsewhere }] = (await db.query('SELECT id FROM chat.message WHERE chat_id = $1 LIMIT 1', [other])).rows;
    for (const after of [aside, elsewhere, randomUUID()])
      await api.http.get(`/api/v1/shared/${share.share_id}?after=${after}`).expect(404, { detail: 'Message not found' });
    // Not an id, NUL bytes, page sizes out of range: refused before the service is asked.
    for (const query of ['after=nope', 'after=%00', 'limit=0', 'limit=201', 'limit=ten'])
      expect((await api.http.get(`/api/v1/shared/${share.share_id}?${query}`)).status).toBe(422);
    // Revoked: every page is gone.
    await api.delete(`/api/v1/chats/${chatId}/share`).expect(200, { revoked: true });
    await api.http.get(`/api/v1/shared/${share.share_id}?after=${ids[49]}`).expect(404);
  });

  it('reads a conversation larger than one bus message (over NATS, 1 MB) whole: the conversation, its share, all its messages', async () => {
    const api = await guest();
    const chatId = await newChat(api);
    // 40 exchanges of 16,000 characters each way: about 1.3 MB of words, written as a chain.
    const { ids } = await writeChain(
      chatId,
      Array.from({ length: 80 }, (_, i) => String.fromCharCode(65 + ((i + 1) % 26)).repeat(16_000)),
    );
    const whole = (await api.get(`/api/v1/chats/${chatId}`).expect(200)).body as { messages: { message_id: string; content: string }[] };
    expect(whole.messages.map((m) => m.message_id)).toEqual(ids);
    expect(whole.messages.every((m) => m.content.length === 16_000)).toBe(true);
    const share = (await api.post(`/api/v1/chats/${chatId}/share`).expect(201)).body;
    const shared = (await api.http.get(`/api/v1/shared/${share.share_id}?limit=200`).expect(200)).body as {
      messages: { message_id: string }[];
      has_more: boolean;
    };
    expect(shared.messages.map((m) => m.message_id)).toEqual(ids);
    expect(shared.has_more).toBe(false);
    const all = (await api.get(`/api/v1/messages/all_user_messages?chat_ids=${chatId}`).expect(200)).body as unknown[];
    expect(all).toHaveLength(80);
  });

  it('lets a share show its attachments, and only through the share', async () => {
    const api = await guest();
    const chatId = await newChat(api);
    const png = (
      await api
        .auth(api.http.post('/api/v1/files/'))
        .attach('file', fakePng([1, 2, 3], 8), { filename: 'shared.png', contentType: 'image/png' })
        .expect(201)
    ).body;
    await send(api, chatId, { content: 'Look', files: [{ object_store_object_id: png.object_store_object_id, mime_type: 'image/png' }] });
    const share = (await api.post(`/api/v1/chats/${chatId}/share`).expect(201)).body;
    const viewer = await guest();
    await viewer.get(`/api/v1/files/presigned/${png.object_store_object_id}`).expect(404);
    const seen = await viewer.get(`/api/v1/files/presigned/${png.object_store_object_id}?share_id=${share.share_id}`).expect(200);
    expect(seen.body.filename).toBe('shared.png');
    await api.delete(`/api/v1/chats/${chatId}/share`).expect(200);
    await viewer.get(`/api/v1/files/presigned/${png.object_store_object_id}?share_id=${share.share_id}`).expect(404);
  });

  it("never lets one user read or touch another's conversations, messages or shares (404)", async () => {
    const owner = await guest();
    const chatId = await newChat(owner);
    const { events } = await send(owner, chatId, { content: 'Private' });
    const reply = events.find((e) => e.event === 'assistant_message')!.data;
    const other = await guest();
    await other.get(`/api/v1/chats/${chatId}`).expect(404, { detail: 'Conversation not found' });
    await other
      .auth(other.http.patch(`/api/v1/chats/${chatId}`))
      .send({ conversation_title: 'Mine' })
      .expect(404);
    await other.delete(`/api/v1/chats/${chatId}`).expect(404);
    expect((await send(other, chatId, { content: 'hi' })).status).toBe(404);
    expect((await postStream(`${stack.url}/api/v1/messages/${reply.message_id}/regenerate`, other.token!)).status).toBe(404);
    await other
      .auth(other.http.put(`/api/v1/messages/${reply.message_id}/feedback`))
      .send({ feedback: 'like' })
      .expect(404, { detail: 'Message not found' });
    await other.post(`/api/v1/chats/${chatId}/share`).expect(404);
    await other.post(`/api/v1/messages/${reply.message_id}/stop`).expect(404);
    await other.get(`/api/v1/messages/all_user_messages?chat_ids=${chatId}`).expect(200, []);
    await other.get(`/api/v1/chats/${chatId}/messages`).expect(404, { detail: 'Conversation not found' });
    await other.get(`/api/v1/chats/${chatId}/messages?before=${reply.message_id}`).expect(404, { detail: 'Conversation not found' });
    // Someone else's message as the cursor of one's own conversation is no message of it.
    const otherChat = await newChat(other);
    await other.get(`/api/v1/chats/${otherChat}/messages?before=${reply.message_id}`).expect(404, { detail: 'Message not found' });
    await other.get(`/api/v1/chats/${otherChat}/messages?through=${reply.message_id}`).expect(404, { detail: 'Message not found' });
    await other
      .get(`/api/v1/chats/${otherChat}/messages`)
      .expect(200, { messages: [], versions: [], has_more: false, leaf_id: null, replying: null });
    expect((await send(other, chatId, { content: 'hi', previous_message_id: reply.message_id })).status).toBe(404);
  });

  it('refuses bad input with clear errors, and unauthenticated calls with 401', async () => {
    const api = await guest();
    const chatId = await newChat(api);
    const empty = await send(api, chatId, { content: '   ' });
    expect(empty).toMatchObject({ status: 422, json: { detail: 'content: must not be empty' } });
    expect((await send(api, 'not-an-id', { content: 'x' })).json).toEqual({ detail: 'chat_id: must be an id (UUID)' });
    expect((await send(api, '00000000-0000-4000-8000-000000000000', { content: 'x' })).status).toBe(404);
    await api.http.get('/api/v1/chats/').expect(401, { detail: 'Not authenticated' });
    await api.get('/api/v1/messages/all_user_messages?chat_ids=a,b').expect(422);
    const page = (query: string) => api.get(`/api/v1/chats/${chatId}/messages${query}`);
    expect((await page('?before=not-an-id').expect(422)).body).toEqual({ detail: 'before: must be an id (UUID)' });
    expect((await page('?limit=0').expect(422)).body.detail).toMatch(/^limit: /);
    expect((await page('?limit=201').expect(422)).body.detail).toMatch(/^limit: /);
    expect((await page('?limit=many').expect(422)).body.detail).toMatch(/^limit: /);
    await page(`?before=${randomUUID()}`).expect(404, { detail: 'Message not found' });
    await page(`?before=${randomUUID()}&through=${randomUUID()}`).expect(400, { detail: 'Give `before` or `through`, not both.' });
    await api.http.get(`/api/v1/chats/${chatId}/messages`).expect(401, { detail: 'Not authenticated' });
  });

  it('answers 429 past the daily limit, before any model call', async () => {
    const api = await guest();
    const chatId = await newChat(api);
    for (let i = 0; i < DAILY_LIMIT; i++) expect((await send(api, chatId, { content: `m${i}` })).status).toBe(200);
    const calls = openai.requests('responses').length;
    const refused = await send(api, chatId, { content: 'one more' });
    expect(refused).toMatchObject({
      status: 429,
      json: { detail: `You have reached today's limit of ${DAILY_LIMIT} messages for guests. Sign in to keep chatting.` },
    });
    expect(openai.requests('responses')).toHaveLength(calls);
  });

  it('exports conversations and purges them with the account', async () => {
    const api = await guest();
    const chatId = await newChat(api);
    await send(api, chatId, { content: 'Remember me' });
    const userId = (await api.get('/api/v1/auth/me')).body.user_id;
    const zip = await binary(api.get('/api/v1/users/me/export'));
    const chat = JSON.parse(strFromU8(unzipSync(new Uint8Array(zip.body as Buffer))['chat.json']));
    expect(chat.conversation).toEqual([expect.objectContaining({ id: chatId })]);
    expect(chat.message.map((m: { content: string }) => m.content)).toContain('Remember me');
    await api.delete('/api/v1/users/me').expect(204);
    const { rows } = await db.query(
      'SELECT (SELECT count(*) FROM chat.conversation WHERE user_id = $1)::int AS c, (SELECT count(*) FROM chat.message WHERE user_id = $1)::int AS m',
      [userId],
    );
    expect(rows[0]).toEqual({ c: 0, m: 0 });
  });
});
