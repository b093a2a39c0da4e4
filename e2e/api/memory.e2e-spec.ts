import { CHAT_EVENTS } from '@app/contracts/chat';
import { UserMemorySchema, type UserMemory } from '@app/contracts/memory';
import type { EmbeddedStack } from '@app/embedded';
import { EventPublisher } from '@app/platform';
import { ExtractionService } from '@app/service-memory';
import { FakeOpenAI, lastUserText, TRANSPORTS } from '@app/testing';
import { strFromU8, unzipSync } from 'fflate';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { startTestStack, type TestStack } from '../support/test-stack';
import { ApiClient, binary, eventually } from '../support/api-client';
import { postStream, type SseEvent } from '../support/sse';

const LIST = '/api/v1/user_memory/?user_preference_name=default';
const NOT_FOUND = { detail: 'Memory not found' };
/** A memory item carries the contract's fields and nothing else (no user id, no search vector). */
const ITEM_FIELDS = Object.keys(UserMemorySchema.shape).sort();
const RESTORE_WINDOW_SECONDS = 2;

const replyOf = (events: SseEvent[]) => events.find((e) => e.event === 'assistant_message')!.data;
const textOf = (events: SseEvent[]) =>
  events
    .filter((e) => e.event === 'text')
    .map((e) => e.data.delta)
    .join('');
const texts = (memories: UserMemory[]) => memories.map((m) => m.text).sort();

/** A guest (or a signed-in user) talking to the assistant, and what it remembers of them. */
class Person {
  readonly api: ApiClient;
  constructor(private readonly stack: EmbeddedStack) {
    this.api = new ApiClient(stack.url);
  }
  async start(): Promise<this> {
    await this.api.guest();
    return this;
  }
  async userId(): Promise<string> {
    return (await this.api.get('/api/v1/auth/me').expect(200)).body.user_id;
  }
  async newChat(): Promise<string> {
    return (await this.api.post('/api/v1/chats/', {}).expect(201)).body.chat_id;
  }
  async say(chatId: string, content: string): Promise<SseEvent[]> {
    const { status, events } = await postStream(`${this.stack.url}/api/v1/chats/${chatId}/messages`, this.api.token!, { content });
    expect(status).toBe(200);
    expect(events.at(-1)!.event).toBe('done');
    return events;
  }
  async memories(query = ''): Promise<UserMemory[]> {
    return (await this.api.get(`${LIST}${query}`).expect(200)).body;
  }
  /** Waits until the extraction after a reply has stored what `until` expects. */
  async memoriesWhen(until: (memories: UserMemory[]) => boolean): Promise<UserMemory[]> {
    return eventually(async () => {
      const memories = await this.memories();
      return until(memories) ? memories : undefined;
    });
  }
  put(id: string, body: unknown) {
    return this.api.auth(this.api.http.put(`/api/v1/user_memory/${id}`)).send(body as object);
  }
  remove(id: string) {
    return this.api.delete(`/api/v1/user_memory/${id}`);
  }
  restore(id: string) {
    return this.api.post(`/api/v1/user_memory/${id}/restore`);
  }
}

/**
 * Long-term memory through the real gateway, on both transports, with the offline model: what a
 * guest says about themselves is remembered after the reply, corrected rather than doubled, used
 * in the next replies, and under the user's control (edit, remove with undo, export, deletion).
 */
describe.each(TRANSPORTS)('long-term memory over the %s transport', (transport) => {
  let stack: EmbeddedStack;
  let db: Client;
  let booted: TestStack;
  let phoneSeq = 0;
  const person = () => new Person(stack).start();

  beforeAll(async () => {
    booted = await startTestStack('memory', transport, {
      OFFLINE_TOKEN_DELAY_MS: '0',
      MEMORY_RESTORE_WINDOW_SECONDS: String(RESTORE_WINDOW_SECONDS),
      PHONE_CODES_PER_IP: '1000',
    });
    ({ stack, db } = booted);
  });

  afterAll(async () => {
    await booted?.close();
  });

  it('remembers what a guest says about themselves after the reply, and updates a contradiction instead of adding one', async () => {
    const guest = await person();
    const chatId = await guest.newChat();
    const first = await guest.say(chatId, 'I moved to Lisbon');
    let memories = await guest.memoriesWhen((m) => m.length === 1);
    expect(memories[0]).toMatchObject({
      text: 'Lives in Lisbon',
      source_chat_id: chatId,
      source_message_id: first[0].data.message_id,
      is_inference: false,
      is_fact: true,
      is_confirmed: true,
      removed_at: null,
    });
    expect(Object.keys(memories[0]).sort()).toEqual(ITEM_FIELDS);
    const lisbon = memories[0].user_memory_id;

    await guest.say(chatId, 'my daughter is called Ana');
    await guest.memoriesWhen((m) => m.length === 3);
    await guest.say(chatId, "I'm vegetarian");
    memories = await guest.memoriesWhen((m) => m.length === 4);
    expect(texts(memories)).toEqual(['Has a daughter named Ana', 'Is a parent', 'Is vegetarian', 'Lives in Lisbon']);
    // What was inferred waits for the user's confirmation.
    expect(memories.find((m) => m.text === 'Is a parent')).toMatchObject({ is_inference: true, is_confirmed: false });

    const moved = await guest.say(chatId, 'Actually I moved to Porto');
    memories = await guest.memoriesWhen((m) => m.some((x) => x.text === 'Lives in Porto'));
    expect(texts(memories)).toEqual(['Has a daughter named Ana', 'Is a parent', 'Is vegetarian', 'Lives in Porto']);
    expect(memories.find((m) => m.text === 'Lives in Porto')).toMatchObject({
      user_memory_id: lisbon,
      source_message_id: moved[0].data.message_id,
    });
    const { rows } = await db.query('SELECT count(*)::int AS n FROM memory.user_memory WHERE user_id = $1', [await guest.userId()]);
    expect(rows[0].n).toBe(4);

    // Newest first, and per conversation on request.
    expect(memories[0].text).toBe('Lives in Porto');
    const other = await guest.newChat();
    await guest.say(other, 'I love jazz');
    await guest.memoriesWhen((m) => m.length === 5);
    expect(texts(await guest.memories(`&source_chat_id=${other}`))).toEqual(['Loves jazz']);
    expect(await guest.memories('&source_chat_id=')).toHaveLength(5);
    expect((await guest.api.get('/api/v1/user_memory/').expect(200)).body).toHaveLength(5);
    await guest.api.get('/api/v1/user_memory/?user_preference_name=work').expect(200, []);
    await guest.api.get(`${LIST}&source_chat_id=nope`).expect(422);
  });

  it('keeps "Has a dog named Rex" through a question about the dog, "Rex is my dog", another dog, a hypothetical and a denial', async () => {
    const guest = await person();
    const chatId = await guest.newChat();
    await guest.say(chatId, 'I have a dog called Rex.');
    const [rex] = await guest.memoriesWhen((m) => m.length === 1);
    expect(rex).toMatchObject({ text: 'Has a dog named Rex', is_inference: false, is_confirmed: true });
    for (const message of [
      'What is the name of my dog?',
      'Rex is my dog.',
      "My friend's dog is Max.",
      'If I had a cat I would call her Luna.',
      "My dog isn't called Max.",
    ]) {
      const reply = replyOf(await guest.say(chatId, message));
      // The memory service has handled this exchange (its event id is the reply's).
      await eventually(async () => {
        const { rows } = await db.query("SELECT 1 FROM memory.processed_event WHERE consumer = 'memory-extraction' AND event_id = $1", [
          `exchange:${reply.message_id}`,
        ]);
        return rows.length ? true : undefined;
      });
      // Untouched: same text, same source, same update time.
      expect([message, await guest.memories()]).toEqual([message, [rex]]);
    }
  });

  it("uses the relevant memories in the next replies, lists their ids in the reply's metadata, and answers 'what do you know about me?' from them", async () => {
    const guest = await person();
    const chatId = await guest.newChat();
    await guest.say(chatId, 'I moved to Lisbon');
    await guest.say(chatId, 'my daughter is called Ana');
    await guest.say(chatId, "I'm vegetarian");
    const memories = await guest.memoriesWhen((m) => m.length === 4);
    const idOf = (text: string) => memories.find((m) => m.text === text)!.user_memory_id;

    const school = await guest.say(chatId, 'Which school would suit my daughter?');
    expect(replyOf(school).metadata.memory_ids).toEqual([idOf('Has a daughter named Ana')]);

    const about = await guest.say(chatId, 'What do you know about me?');
    expect([...replyOf(about).metadata.memory_ids].sort()).toEqual(memories.map((m) => m.user_memory_id).sort());
    for (const memory of memories) expect(textOf(about)).toContain(`- ${memory.text}`);

    // Another user's memories never come.
    const stranger = await person();
    const theirs = await stranger.say(await stranger.newChat(), 'What do you know about me?');
    expect(replyOf(theirs).metadata.memory_ids).toEqual([]);
    expect(textOf(theirs)).not.toContain('What I know about you');
  });

  it('lets the user edit, confirm, remove (with undo) their memories; removed ones are never used again; another user gets 404', async () => {
    const guest = await person();
    const chatId = await guest.newChat();
    await guest.say(chatId, "I'm vegetarian and my son is called Leo");
    const memories = await guest.memoriesWhen((m) => m.length === 3);
    const veg = memories.find((m) => m.text === 'Is vegetarian')!;
    const parent = memories.find((m) => m.text === 'Is a parent')!;

    // Confirm an inference; edit a text.
    const confirmed = await guest.put(parent.user_memory_id, { is_confirmed: true }).expect(200);
    expect(confirmed.body).toMatchObject({ user_memory_id: parent.user_memory_id, is_confirmed: true, is_inference: true });
    expect(Object.keys(confirmed.body).sort()).toEqual(ITEM_FIELDS);
    const edited = await guest.put(veg.user_memory_id, { text: '  Is vegetarian, eats fish  ' }).expect(200);
    expect(edited.body).toMatchObject({ text: 'Is vegetarian, eats fish', is_confirmed: true });
    expect(Date.parse(edited.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(veg.updated_at));

    // Bad bodies and ids.
    await guest.put(veg.user_memory_id, {}).expect(422, { detail: 'give text or is_confirmed' });
    await guest.put(veg.user_memory_id, { text: '   ' }).expect(422, { detail: 'text: must not be empty' });
    await guest.put(veg.user_memory_id, { is_confirmed: 'yes' }).expect(422);
    await guest.put(veg.user_memory_id, { text: 'x'.repeat(501) }).expect(422);
    await guest.put(veg.user_memory_id, { text: 'ok', user_id: randomUUID() }).expect(422);
    await guest.put('not-an-id', { is_confirmed: true }).expect(422, { detail: 'user_memory_id: must be an id (UUID)' });
    await guest.put(randomUUID(), { is_confirmed: true }).expect(404, NOT_FOUND);

    // Someone else's memory does not exist for them.
    const stranger = await person();
    await stranger.put(veg.user_memory_id, { text: 'Mine now' }).expect(404, NOT_FOUND);
    await stranger.remove(veg.user_memory_id).expect(404, NOT_FOUND);
    await stranger.restore(veg.user_memory_id).expect(404, NOT_FOUND);
    expect(await stranger.memories()).toEqual([]);
    await guest.api.http.get(LIST).expect(401, { detail: 'Not authenticated' });

    // Remove, undo, remove again.
    await guest.remove(veg.user_memory_id).expect(204);
    await guest.remove(veg.user_memory_id).expect(204);
    expect(texts(await guest.memories())).toEqual(['Has a son named Leo', 'Is a parent']);
    await guest.put(veg.user_memory_id, { is_confirmed: true }).expect(404, NOT_FOUND);
    const restored = await guest.restore(veg.user_memory_id).expect(200);
    expect(restored.body).toMatchObject({ text: 'Is vegetarian, eats fish', removed_at: null });
    expect(await guest.memories()).toHaveLength(3);
    await guest.remove(veg.user_memory_id).expect(204);

    // Never used again.
    const recipe = await guest.say(chatId, 'Any vegetarian recipes for tonight?');
    expect(replyOf(recipe).metadata.memory_ids).toEqual([]);
    const about = await guest.say(chatId, 'What do you know about me?');
    expect(replyOf(about).metadata.memory_ids).not.toContain(veg.user_memory_id);
    expect(textOf(about)).not.toContain('vegetarian');
    expect(textOf(about)).toContain('- Has a son named Leo');

    // Past the undo window it is gone for good, and erased.
    await new Promise((r) => setTimeout(r, RESTORE_WINDOW_SECONDS * 1000 + 300));
    await guest.restore(veg.user_memory_id).expect(404, NOT_FOUND);
    await eventually(async () => {
      const { rows } = await db.query('SELECT count(*)::int AS n FROM memory.user_memory WHERE user_memory_id = $1', [veg.user_memory_id]);
      return rows[0].n === 0 ? true : undefined;
    });
  });

  it('stores an exchange event delivered twice once', async () => {
    const guest = await person();
    const userId = await guest.userId();
    const publisher = new EventPublisher(stack.runtime.bus);
    const eventId = randomUUID();
    const payload = {
      user_id: userId,
      chat_id: randomUUID(),
      user_message_id: randomUUID(),
      assistant_message_id: randomUUID(),
      user_text: "I'm allergic to peanuts",
      assistant_text: 'Noted.',
    };
    await publisher.publish(CHAT_EVENTS.exchangeCompleted, payload, { eventId });
    await guest.memoriesWhen((m) => m.length === 1);
    // Published again with the same id (a producer's retry): the stream drops it.
    await publisher.publish(CHAT_EVENTS.exchangeCompleted, payload, { eventId });
    // Delivered again to the consumer (a redelivery after a lost acknowledgement): applied once.
    const extraction = stack.services.find((s) => s.name === 'memory')!.app.get(ExtractionService);
    expect(await extraction.learn(eventId, payload)).toBe('duplicate');
    // Another exchange saying the same: a new event, and the same memory.
    const again = randomUUID();
    await publisher.publish(CHAT_EVENTS.exchangeCompleted, { ...payload, user_message_id: randomUUID() }, { eventId: again });
    await eventually(async () => {
      const { rows } = await db.query("SELECT 1 FROM memory.processed_event WHERE consumer = 'memory-extraction' AND event_id = $1", [
        again,
      ]);
      return rows.length ? true : undefined;
    });
    expect(texts(await guest.memories())).toEqual(['Is allergic to peanuts']);
    const { rows } = await db.query('SELECT count(*)::int AS n FROM memory.user_memory WHERE user_id = $1', [userId]);
    expect(rows[0].n).toBe(1);
  });

  it("moves a guest's memories to the account they sign in to", async () => {
    const phone = `+1415556${String(1000 + (phoneSeq++ % 9000)).padStart(4, '0')}`;
    const owner = new ApiClient(stack.url);
    const signIn = async (api: ApiClient) => {
      await api.fetchCsrf();
      expect((await api.requestPhoneCode(phone)).status).toBe(200);
      const code = await eventually(async () => {
        const { body } = await new ApiClient(stack.url).get(`/api/v1/dev/sms/messages?to=${encodeURIComponent(phone)}`).expect(200);
        const codes = (body.messages as { to: string; body: string }[])
          .filter((m) => m.to === phone)
          .map((m) => m.body.match(/\b(\d{6})\b/)?.[1]);
        return codes.find((code) => code && !used.has(code));
      });
      used.add(code);
      const res = await api.phoneCallback(phone, code).expect(302);
      expect(res.headers.location).toMatch(/^\/login-success#access_token=/);
      api.token = decodeURIComponent(String(res.headers.location).split('#access_token=')[1]);
    };
    const used = new Set<string>();
    await signIn(owner);
    const ownerId = (await owner.get('/api/v1/auth/me')).body.user_id;
    const guest = await person();
    await guest.say(await guest.newChat(), 'I live in Berlin');
    await guest.memoriesWhen((m) => m.length === 1);
    await signIn(guest.api);
    expect(await guest.userId()).toBe(ownerId);
    const moved = await eventually(async () => {
      const { body } = await owner.get(LIST).expect(200);
      return body.length ? (body as UserMemory[]) : undefined;
    });
    expect(texts(moved)).toEqual(['Lives in Berlin']);
  });

  it("exports the user's memories and purges them with the account", async () => {
    const guest = await person();
    await guest.say(await guest.newChat(), 'My name is Sam and I work as a nurse');
    await guest.memoriesWhen((m) => m.length === 2);
    const userId = await guest.userId();
    const zip = await binary(guest.api.get('/api/v1/users/me/export'));
    const exported = JSON.parse(strFromU8(unzipSync(new Uint8Array(zip.body as Buffer))['memory.json']));
    expect(exported.user_memory.map((r: { text: string }) => r.text).sort()).toEqual(['Name is Sam', 'Works as a nurse']);
    expect(exported.user_memory.every((r: { user_id: string }) => r.user_id === userId)).toBe(true);
    await guest.api.delete('/api/v1/users/me').expect(204);
    const { rows } = await db.query('SELECT count(*)::int AS n FROM memory.user_memory WHERE user_id = $1', [userId]);
    expect(rows[0].n).toBe(0);

    // An exchange that finishes after the deletion cannot bring anything back.
    const late = randomUUID();
    await new EventPublisher(stack.runtime.bus).publish(
      CHAT_EVENTS.exchangeCompleted,
      {
        user_id: userId,
        chat_id: randomUUID(),
        user_message_id: randomUUID(),
        assistant_message_id: randomUUID(),
        user_text: 'I live in Oslo',
        assistant_text: 'Nice.',
      },
      { eventId: late },
    );
    await eventually(async () => {
      const handled = await db.query("SELECT 1 FROM memory.processed_event WHERE consumer = 'memory-extraction' AND event_id = $1", [late]);
      return handled.rows.length ? true : undefined;
    });
    const after = await db.query('SELECT count(*)::int AS n FROM memory.user_memory WHERE user_id = $1', [userId]);
    expect(after.rows[0].n).toBe(0);
  });
});

/** The model extracts (structured output), driven through the real `openai` SDK against the fake. */
describe('extraction by a model', () => {
  const isExtraction = (body: Record<string, unknown>) =>
    (body.text as { format?: { type?: string } } | undefined)?.format?.type === 'json_schema' ||
    (body.response_format as { type?: string } | undefined)?.type === 'json_schema';
  const memories = (...items: [text: string, subject: string | null, isInference?: boolean][]) =>
    JSON.stringify({
      memories: items.map(([text, subject, isInference = false]) => ({ text, subject, is_inference: isInference, is_fact: true })),
    });

  describe('OpenAI (Responses API, text.format json_schema)', () => {
    let booted: TestStack;
    let stack: EmbeddedStack;
    const openai = new FakeOpenAI({ apiKey: 'sk-memory' });
    const answers: string[] = [];

    beforeAll(async () => {
      await openai.start();
      openai.setDefaultReply('responses', (body) => (isExtraction(body) ? (answers.shift() ?? memories()) : lastUserText(body) || 'OK'));
      booted = await startTestStack('memorymodel', 'in-process', {
        OPENAI_API_KEY: 'sk-memory',
        OPENAI_BASE_URL: openai.baseURL,
        LLM_PROVIDER: 'openai',
        MEMORY_EXTRACTOR: 'model',
        MEMORY_MODEL: 'memory-model',
      });
      stack = booted.stack;
    });
    afterAll(async () => {
      await booted?.close();
      await openai.stop();
    });

    it('stores what the model extracted, shows it what is known, applies its corrections, and falls back to the rules on an unusable answer', async () => {
      const guest = await new Person(stack).start();
      const chatId = await guest.newChat();
      answers.push(memories(['Lives in Lisbon', 'home'], ['Is a parent', 'inference:parent', true]));
      await guest.say(chatId, 'We moved to Lisbon with our little girl');
      let stored = await guest.memoriesWhen((m) => m.length === 2);
      expect(stored.find((m) => m.text === 'Is a parent')).toMatchObject({ is_inference: true, is_confirmed: false });
      const request = openai.requests('responses').find((r) => isExtraction(r.body))!;
      expect(request.headers.authorization).toBe('Bearer sk-memory');
      expect(request.body).toMatchObject({
        model: 'memory-model',
        text: { format: { type: 'json_schema', name: 'memories', strict: true } },
      });
      expect(request.body.input).toContain('We moved to Lisbon with our little girl');
      expect(request.body.instructions).toContain('reuse its subject exactly');

      answers.push(memories(['Lives in Porto', 'home']));
      await guest.say(chatId, 'Change of plan, we ended up in Porto');
      stored = await guest.memoriesWhen((m) => m.some((x) => x.text === 'Lives in Porto'));
      expect(texts(stored)).toEqual(['Is a parent', 'Lives in Porto']);
      const second = openai.requests('responses').filter((r) => isExtraction(r.body))[1];
      expect(second.body.input).toContain('- [home] Lives in Lisbon');

      // The chat's next reply is personalized with them (the model's instructions).
      await guest.say(chatId, 'Where do I live again?');
      const chatRequest = openai
        .requests('responses')
        .filter((r) => r.stream)
        .at(-1)!;
      expect(chatRequest.body.instructions).toContain('- Lives in Porto');

      await eventually(async () => (openai.requests('responses').filter((r) => isExtraction(r.body)).length === 3 ? true : undefined));
      answers.push('Sure! You are vegetarian.');
      await guest.say(chatId, "I'm vegetarian");
      stored = await guest.memoriesWhen((m) => m.length === 3);
      expect(texts(stored)).toEqual(['Is a parent', 'Is vegetarian', 'Lives in Porto']);
    });

    it("refuses the model's lossy update after a question, and its update from someone else's fact", async () => {
      const guest = await new Person(stack).start();
      const chatId = await guest.newChat();
      answers.push(memories(['Has a dog named Rex', 'pet:dog']));
      await guest.say(chatId, 'I have a dog called Rex.');
      const [rex] = await guest.memoriesWhen((m) => m.length === 1);
      expect(rex.text).toBe('Has a dog named Rex');
      for (const [message, answer] of [
        ['What is the name of my dog?', memories(['Has a dog', 'pet:dog'])],
        ['Rex is my dog.', memories(['Has a dog', 'pet:dog'])],
        // Under no subject (or another one), the vaguer text is a repeat, not a second memory.
        ['Do you remember my dog?', memories(['Has a dog', null])],
        ["My friend's dog is Max.", memories(['Has a dog named Max', 'pet:dog'])],
      ]) {
        answers.push(answer);
        const reply = replyOf(await guest.say(chatId, message));
        await eventually(async () => {
          const { rows } = await booted.db.query(
            "SELECT 1 FROM memory.processed_event WHERE consumer = 'memory-extraction' AND event_id = $1",
            [`exchange:${reply.message_id}`],
          );
          return rows.length ? true : undefined;
        });
        expect(answers).toEqual([]);
        expect([message, await guest.memories()]).toEqual([message, [rex]]);
      }
    });
  });

  describe('an OpenAI-compatible server (Chat Completions, response_format json_schema)', () => {
    let booted: TestStack;
    let stack: EmbeddedStack;
    const server = new FakeOpenAI();

    beforeAll(async () => {
      await server.start();
      server.setDefaultReply('chat.completions', (body) =>
        isExtraction(body) ? memories(['Works as a carpenter', 'occupation']) : lastUserText(body) || 'OK',
      );
      booted = await startTestStack('memorycompat', 'in-process', {
        OPENAI_BASE_URL: server.baseURL,
        CHAT_MODEL: 'llama3.2',
        MEMORY_EXTRACTOR: 'model',
      });
      stack = booted.stack;
    });
    afterAll(async () => {
      await booted?.close();
      await server.stop();
    });

    it('asks the configured model for structured output and stores the answer', async () => {
      const guest = await new Person(stack).start();
      await guest.say(await guest.newChat(), 'I build furniture for a living');
      expect(texts(await guest.memoriesWhen((m) => m.length === 1))).toEqual(['Works as a carpenter']);
      const request = server.requests('chat.completions').find((r) => isExtraction(r.body))!;
      expect(request.body).toMatchObject({
        model: 'llama3.2',
        response_format: { type: 'json_schema', json_schema: { name: 'memories', strict: true } },
      });
      expect((request.body.messages as { role: string }[]).map((m) => m.role)).toEqual(['system', 'user']);
    });
  });
});
