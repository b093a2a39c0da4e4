import { randomUUID } from 'node:crypto';
import { PROJECT_LIMITS } from '@app/contracts/chat';
import { FakeOpenAI, TRANSPORTS } from '@app/testing';
import { startTestStack, type TestStack } from '../support/test-stack';
import { ApiClient } from '../support/api-client';
import { postStream } from '../support/sse';

interface Project {
  project_id: string;
  name: string;
  instructions: string;
  files: { object_store_object_id: string; mime_type: string; filename: string }[];
  conversation_count: number;
}

/**
 * Projects (issue 25, part 5), through the gateway on both transports: conversations grouped, moved
 * in and out, the project's instructions and files given to the model (the fake OpenAI server
 * shows what it received), the bounds, deleting with either choice, and other users' ids refused.
 */
describe.each(TRANSPORTS)('projects over the %s transport', (transport) => {
  let booted: TestStack;
  let url: string;
  const openai = new FakeOpenAI();

  const patch = (api: ApiClient, path: string, body: object) => api.auth(api.http.patch(path)).send(body);
  const guest = async () => {
    const api = new ApiClient(url);
    await api.guest();
    return api;
  };
  const newProject = async (api: ApiClient, body: Record<string, unknown> = {}) =>
    (await api.post('/api/v1/projects/', { name: `Project ${randomUUID().slice(0, 6)}`, ...body }).expect(201)).body as Project;
  const newChat = async (api: ApiClient, body: Record<string, unknown> = {}) =>
    (await api.post('/api/v1/chats/', body).expect(201)).body as { chat_id: string; project_id: string | null };
  const upload = async (api: ApiClient, text: string, filename = 'brief.txt') =>
    (await api.auth(api.http.post('/api/v1/files/')).attach('file', Buffer.from(text), { filename, contentType: 'text/plain' }).expect(201))
      .body.object_store_object_id as string;
  /** Sends a message and answers the model's request for it (the streamed one that carries the message). */
  const send = async (api: ApiClient, chatId: string, content: string) => {
    const { events } = await postStream(`${url}/api/v1/chats/${chatId}/messages`, api.token!, { content });
    expect(events.map((e) => e.event)).toContain('assistant_message');
    const request = openai.requests('responses').find((r) => r.stream && JSON.stringify(r.body).includes(content));
    expect(request).toBeDefined();
    return JSON.stringify(request!.body);
  };

  beforeAll(async () => {
    await openai.start();
    booted = await startTestStack('projects', transport, {
      LLM_PROVIDER: 'openai',
      OPENAI_API_KEY: 'sk-test-key',
      OPENAI_BASE_URL: openai.baseURL,
      CHAT_FAST_MODEL: 'fast-model',
      CHAT_REASONING_MODEL: 'thinking-model',
      RATE_LIMIT_PER_MINUTE: '100000',
    });
    url = booted.stack.url;
  });
  afterAll(async () => {
    await booted?.close();
    await openai.stop();
  });

  it('creates, lists, reads, renames and edits a project; a conversation moves in and out and is listed with its project', async () => {
    const api = await guest();
    const made = await newProject(api, { name: '  Thesis  ', instructions: 'Cite sources.' });
    expect(made).toMatchObject({ name: 'Thesis', instructions: 'Cite sources.', files: [], conversation_count: 0 });
    const chat = await newChat(api);
    expect(chat.project_id).toBeNull();
    expect((await patch(api, `/api/v1/chats/${chat.chat_id}`, { project_id: made.project_id }).expect(200)).body.project_id).toBe(
      made.project_id,
    );
    const listed = (await api.get('/api/v1/chats/').expect(200)).body as { chat_id: string; project_id: string | null }[];
    expect(listed.find((c) => c.chat_id === chat.chat_id)!.project_id).toBe(made.project_id);
    expect((await api.get(`/api/v1/projects/${made.project_id}`).expect(200)).body.conversation_count).toBe(1);
    const renamed = (await patch(api, `/api/v1/projects/${made.project_id}`, { name: 'Dissertation', instructions: '' }).expect(200))
      .body as Project;
    expect(renamed).toMatchObject({ name: 'Dissertation', instructions: '', conversation_count: 1 });
    expect(((await api.get('/api/v1/projects/').expect(200)).body as Project[]).map((p) => p.name)).toEqual(['Dissertation']);
    expect((await patch(api, `/api/v1/chats/${chat.chat_id}`, { project_id: null }).expect(200)).body.project_id).toBeNull();
    // A title change leaves the project as it is.
    const started = await newChat(api, { project_id: made.project_id });
    expect(started.project_id).toBe(made.project_id);
    expect((await patch(api, `/api/v1/chats/${started.chat_id}`, { conversation_title: 'Chapter 1' }).expect(200)).body.project_id).toBe(
      made.project_id,
    );
  });

  it("gives the model the project's instructions in its conversations, and not once the conversation is moved out", async () => {
    const api = await guest();
    const rule = `Always answer in haiku ${randomUUID().slice(0, 8)}.`;
    const made = await newProject(api, { instructions: rule });
    const chat = await newChat(api, { project_id: made.project_id });
    const inside = await send(api, chat.chat_id, `First question ${randomUUID()}`);
    expect(inside).toContain('<project_instructions>');
    expect(inside).toContain(rule);
    await patch(api, `/api/v1/chats/${chat.chat_id}`, { project_id: null }).expect(200);
    const outside = await send(api, chat.chat_id, `Second question ${randomUUID()}`);
    expect(outside).not.toContain(rule);
    // A conversation outside any project never gets it.
    const other = await newChat(api);
    expect(await send(api, other.chat_id, `Third question ${randomUUID()}`)).not.toContain(rule);
  });

  it("gives the model the project's files in its conversations, and refuses a file that is not the caller's", async () => {
    const api = await guest();
    const secret = `The launch code is ${randomUUID()}`;
    const fileId = await upload(api, secret);
    const made = await newProject(api, { files: [{ object_store_object_id: fileId }] });
    expect(made.files).toEqual([{ object_store_object_id: fileId, mime_type: 'text/plain', filename: 'brief.txt' }]);
    const chat = await newChat(api, { project_id: made.project_id });
    expect(await send(api, chat.chat_id, `What is the code? ${randomUUID()}`)).toContain(secret);

    const stranger = await guest();
    const theirs = await newProject(stranger);
    const refused = await patch(stranger, `/api/v1/projects/${theirs.project_id}`, { files: [{ object_store_object_id: fileId }] }).expect(
      404,
    );
    expect(refused.body).toEqual({ detail: `File not found: ${fileId}` });
    await stranger.post('/api/v1/projects/', { name: 'x', files: [{ object_store_object_id: fileId }] }).expect(404);
    expect(((await stranger.get('/api/v1/projects/').expect(200)).body as Project[]).map((p) => p.files)).toEqual([[]]);
    // Taking the files out: the whole list is set.
    expect((await patch(api, `/api/v1/projects/${made.project_id}`, { files: [] }).expect(200)).body.files).toEqual([]);
  });

  it('deletes a project with its conversations, or keeps them moved out, as the caller chooses; it asks', async () => {
    const api = await guest();
    const doomed = await newProject(api);
    const kept = await newProject(api);
    const a = await newChat(api, { project_id: doomed.project_id });
    const b = await newChat(api, { project_id: kept.project_id });
    const free = await newChat(api);
    const unasked = await api.delete(`/api/v1/projects/${doomed.project_id}`).expect(422);
    expect(unasked.body.detail).toMatch(/conversations/);
    await api.delete(`/api/v1/projects/${doomed.project_id}?conversations=maybe`).expect(422);

    expect((await api.delete(`/api/v1/projects/${doomed.project_id}?conversations=delete`).expect(200)).body).toEqual({
      project_id: doomed.project_id,
      conversations: 'delete',
      chat_ids: [a.chat_id],
    });
    await api.get(`/api/v1/chats/${a.chat_id}`).expect(404);
    expect((await api.delete(`/api/v1/projects/${kept.project_id}?conversations=keep`).expect(200)).body.chat_ids).toEqual([b.chat_id]);
    expect((await api.get(`/api/v1/chats/${b.chat_id}`).expect(200)).body.project_id).toBeNull();
    await api.get(`/api/v1/chats/${free.chat_id}`).expect(200);
    await api.get(`/api/v1/projects/${kept.project_id}`).expect(404);
    await api.delete(`/api/v1/projects/${kept.project_id}?conversations=keep`).expect(404);
  });

  it('refuses bad input with a 4xx and a detail: names, instructions, file counts, NUL, ids', async () => {
    const api = await guest();
    const made = await newProject(api);
    const refusals: [string, string, unknown, number][] = [
      ['POST', '/api/v1/projects/', {}, 422],
      ['POST', '/api/v1/projects/', { name: '   ' }, 422],
      ['POST', '/api/v1/projects/', { name: 'x'.repeat(PROJECT_LIMITS.nameMaxChars + 1) }, 422],
      ['POST', '/api/v1/projects/', { name: 'x', instructions: 'y'.repeat(PROJECT_LIMITS.instructionsMaxChars + 1) }, 422],
      ['POST', '/api/v1/projects/', { name: 'x', files: Array.from({ length: 21 }, () => ({ object_store_object_id: 'f' })) }, 422],
      ['POST', '/api/v1/projects/', { name: 'nul\u0000name' }, 422],
      ['POST', '/api/v1/projects/', { name: 'x', instructions: 'nul \u0000' }, 422],
      ['PATCH', `/api/v1/projects/${made.project_id}`, {}, 422],
      ['PATCH', '/api/v1/projects/not-an-id', { name: 'x' }, 422],
      ['PATCH', `/api/v1/chats/${randomUUID()}`, { project_id: 'not-an-id' }, 422],
      ['POST', '/api/v1/chats/', { project_id: 42 }, 422],
    ];
    for (const [method, path, body, status] of refusals) {
      const test = method === 'POST' ? api.post(path, body as object) : patch(api, path, body as object);
      const res = await test;
      expect({ method, path, body, status: res.status }).toEqual({ method, path, body, status });
      expect(res.body).toEqual({ detail: expect.any(String) });
    }
    expect((await api.post('/api/v1/projects/', { name: 'x'.repeat(PROJECT_LIMITS.nameMaxChars) })).status).toBe(201);
    expect((await api.get(`/api/v1/projects/${made.project_id}`).expect(200)).body.name).toBe(made.name);
  });

  it('keeps a temporary chat out of projects', async () => {
    const api = await guest();
    const made = await newProject(api);
    const refused = await api.post('/api/v1/chats/', { temporary: true, project_id: made.project_id }).expect(400);
    expect(refused.body.detail).toMatch(/temporary/i);
    const temporary = await newChat(api, { temporary: true });
    const moved = await patch(api, `/api/v1/chats/${temporary.chat_id}`, { project_id: made.project_id }).expect(409);
    expect(moved.body.detail).toMatch(/temporary/i);
    expect((await api.get(`/api/v1/projects/${made.project_id}`).expect(200)).body.conversation_count).toBe(0);
  });

  it('refuses a project past the per-user bound, and counts each user apart', async () => {
    const api = await guest();
    await booted.db.query(
      `INSERT INTO chat.project (id, user_id, name) SELECT gen_random_uuid(), $1, 'seeded ' || n FROM generate_series(1, $2) AS n`,
      [await userIdOf(api), PROJECT_LIMITS.perUserMax],
    );
    const refused = await api.post('/api/v1/projects/', { name: 'One too many' }).expect(409);
    expect(refused.body.detail).toMatch(/200 projects/);
    await newProject(await guest());
  });

  it('lets exactly one of several creations made at once take the last place', async () => {
    const api = await guest();
    await booted.db.query(
      `INSERT INTO chat.project (id, user_id, name) SELECT gen_random_uuid(), $1, 'seeded ' || n FROM generate_series(1, $2) AS n`,
      [await userIdOf(api), PROJECT_LIMITS.perUserMax - 1],
    );
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => api.post('/api/v1/projects/', { name: `Racer ${i}` })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(((await api.get('/api/v1/projects/').expect(200)).body as Project[]).length).toBe(PROJECT_LIMITS.perUserMax);
  });

  it("answers another user's project ids like made-up ones, and never moves anyone's conversation across users", async () => {
    const owner = await guest();
    const stranger = await guest();
    const mine = await newProject(owner, { instructions: 'private words' });
    const myChat = await newChat(owner, { project_id: mine.project_id });
    const theirProject = await newProject(stranger);
    const theirChat = await newChat(stranger);
    for (const [method, path, body] of [
      ['GET', `/api/v1/projects/${mine.project_id}`, undefined],
      ['PATCH', `/api/v1/projects/${mine.project_id}`, { name: 'taken' }],
      ['DELETE', `/api/v1/projects/${mine.project_id}?conversations=delete`, undefined],
      ['PATCH', `/api/v1/chats/${theirChat.chat_id}`, { project_id: mine.project_id }],
      ['PATCH', `/api/v1/chats/${myChat.chat_id}`, { project_id: theirProject.project_id }],
      ['PATCH', `/api/v1/chats/${myChat.chat_id}`, { project_id: null }],
      ['POST', '/api/v1/chats/', { project_id: mine.project_id }],
      ['GET', `/api/v1/projects/${randomUUID()}`, undefined],
    ] as const) {
      const call = stranger.auth(stranger.http[method.toLowerCase() as 'get' | 'patch' | 'delete' | 'post'](path));
      const res = body === undefined ? await call : await call.send(body);
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 404 });
      expect(res.text).not.toContain('private words');
    }
    expect((await owner.get(`/api/v1/chats/${myChat.chat_id}`).expect(200)).body.project_id).toBe(mine.project_id);
    expect((await owner.get(`/api/v1/projects/${mine.project_id}`).expect(200)).body).toMatchObject({
      name: mine.name,
      conversation_count: 1,
    });
    expect((await stranger.get(`/api/v1/chats/${theirChat.chat_id}`).expect(200)).body.project_id).toBeNull();
  });

  const userIdOf = async (api: ApiClient) => (await api.get('/api/v1/auth/me').expect(200)).body.user_id as string;
});
