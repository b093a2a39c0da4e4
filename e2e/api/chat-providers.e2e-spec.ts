import { bootEmbedded, type EmbeddedStack } from '@app/embedded';
import { createTestEnvironment, FakeOpenAI, type TestEnvironment } from '@app/testing';
import { ApiClient, eventually } from '../support/api-client';
import { postStream, type SseEvent } from '../support/sse';

const texts = (events: SseEvent[]) =>
  events
    .filter((e) => e.event === 'text')
    .map((e) => e.data.delta)
    .join('');

async function conversation(stack: EmbeddedStack) {
  const api = new ApiClient(stack.url);
  await api.guest();
  const chatId = (await api.post('/api/v1/chats/', {}).expect(201)).body.chat_id as string;
  return { api, send: (content: string) => postStream(`${stack.url}/api/v1/chats/${chatId}/messages`, api.token!, { content }) };
}

/** The provider paths other than the Responses API (the transport does not matter here). */
describe('the offline model (the embedded default)', () => {
  let environment: TestEnvironment;
  let stack: EmbeddedStack;

  beforeAll(async () => {
    environment = await createTestEnvironment('offline', 'in-process');
    stack = await bootEmbedded({ ...environment.env, OFFLINE_TOKEN_DELAY_MS: '0' });
  });
  afterAll(async () => {
    await stack?.close();
    await environment?.cleanup();
  });

  it('answers deterministically, says it is the offline model, and is labelled as such', async () => {
    const { send } = await conversation(stack);
    const first = await send('What is the capital of Portugal?');
    const second = await send('What is the capital of Portugal?');
    const reply = first.events.find((e) => e.event === 'assistant_message')!.data;
    expect(reply.metadata).toMatchObject({ provider: 'offline', model: 'offline', auto_selected: false });
    expect(texts(first.events)).toContain("I'm the offline model");
    expect(texts(first.events)).toContain('OPENAI_API_KEY');
    expect(texts(first.events)).toBe(texts(second.events));
    expect(texts(first.events)).toBe(reply.content);
  });
});

describe('an OpenAI-compatible server (Chat Completions)', () => {
  let environment: TestEnvironment;
  let stack: EmbeddedStack;
  const server = new FakeOpenAI();

  beforeAll(async () => {
    await server.start();
    environment = await createTestEnvironment('compatible', 'in-process');
    stack = await bootEmbedded({
      ...environment.env,
      OPENAI_BASE_URL: server.baseURL,
      CHAT_MODEL: 'llama3.2',
      LLM_STALL_TIMEOUT_MS: '1500',
    });
  });
  afterAll(async () => {
    await stack?.close();
    await environment?.cleanup();
    await server.stop();
  });
  beforeEach(() => server.reset());

  it('streams text and reasoning_content from chat completions with the configured model', async () => {
    server.script('chat.completions', [{ reasoning: 'Thinking it over.' }, { text: 'Hello from llama.' }]);
    const { send } = await conversation(stack);
    const { events } = await send('Hi');
    expect(texts(events)).toBe('Hello from llama.');
    expect(
      events
        .filter((e) => e.event === 'reasoning')
        .map((e) => e.data.delta)
        .join(''),
    ).toBe('Thinking it over.');
    const reply = events.find((e) => e.event === 'assistant_message')!.data;
    expect(reply.metadata).toMatchObject({ provider: 'openai-compatible', model: 'llama3.2', auto_selected: false });
    const request = server.requests('chat.completions')[0];
    expect(request.body).toMatchObject({ model: 'llama3.2', stream: true });
    expect((request.body.messages as { role: string }[]).map((m) => m.role)).toEqual(['system', 'user']);
    expect(reply.metadata.provider_request_id).toBe(request.requestId);
    // The title is asked after the reply, of the configured model too (a local server may serve only that one).
    const title = await eventually(async () =>
      server
        .requests('chat.completions')
        .find((r) => !r.stream && r.status === 200 && JSON.stringify(r.body.messages).includes('Give a title')),
    );
    expect(title.body.model).toBe('llama3.2');
  });

  it('stores a reply whose text holds NUL and lone surrogates (which PostgreSQL refuses) without them, and learns from it', async () => {
    server.script('chat.completions', [{ reasoning: 'Hm\u0000m.' }, { text: 'Null\u0000 here, ' }, { text: 'half a pair \ud83d there.' }]);
    const { api, send } = await conversation(stack);
    const { events } = await send('Say something odd');
    expect(events.filter((e) => e.event === 'error')).toEqual([]);
    const reply = events.find((e) => e.event === 'assistant_message')!.data;
    expect(reply.content).toBe('Null here, half a pair \ufffd there.');
    expect(reply.metadata.reasoning).toBe('Hmm.');
    const stored = await api.get(`/api/v1/messages/all_user_messages?chat_ids=${reply.chat_id}`).expect(200);
    expect(stored.body.map((m: { content: string }) => m.content)).toContain('Null here, half a pair \ufffd there.');
    // The exchange reaches the title handler (and the memory service) like any other.
    await eventually(async () =>
      server
        .requests('chat.completions')
        .find((r) => !r.stream && r.status === 200 && JSON.stringify(r.body.messages).includes('Give a title')),
    );
  });

  it('turns an HTTP error and a dropped connection into an error event, keeping the partial reply', async () => {
    // The SDK retries once: both attempts fail.
    server.script(
      'chat.completions',
      { status: 500, error: { message: 'model not loaded' } },
      { status: 500, error: { message: 'model not loaded' } },
    );
    const { send } = await conversation(stack);
    const failed = await send('Hi');
    expect(failed.events.find((e) => e.event === 'error')!.data.detail).toBe('The model failed to answer (500). Please try again.');
    expect(server.requests('chat.completions').filter((r) => r.stream)).toHaveLength(2);
    server.script('chat.completions', [{ text: 'Partial' }, { delayMs: 100 }, { abort: true }]);
    const dropped = await send('Again');
    expect(dropped.events.find((e) => e.event === 'error')).toBeDefined();
    expect(dropped.events.find((e) => e.event === 'assistant_message')!.data).toMatchObject({
      content: 'Partial',
      metadata: { incomplete: true },
    });
  });
});
