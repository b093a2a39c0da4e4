import { bootEmbedded, type EmbeddedStack } from '@app/embedded';
import { createTestEnvironment, FakeOpenAI, FakeWeb, type ChatReplyInput, type TestEnvironment } from '@app/testing';
import { strFromU8, unzipSync } from 'fflate';
import { ApiClient, binary } from '../support/api-client';
import { postStream, type SseEvent } from '../support/sse';

const texts = (events: SseEvent[]) =>
  events
    .filter((e) => e.event === 'text')
    .map((e) => e.data.delta)
    .join('');
const phases = (events: SseEvent[]) => events.filter((e) => e.event === 'phase').map((e) => e.data);
const replyOf = (events: SseEvent[]) => events.find((e) => e.event === 'assistant_message')!.data;

async function conversation(stack: EmbeddedStack) {
  const api = new ApiClient(stack.url);
  await api.guest();
  const chatId = (await api.post('/api/v1/chats/', {}).expect(201)).body.chat_id as string;
  return { api, chatId, send: (content: string) => postStream(`${stack.url}/api/v1/chats/${chatId}/messages`, api.token!, { content }) };
}

/** The tool loop through the whole stack: the offline model's explicit requests, and native tool calls of a real SDK. */
describe('the tool loop', () => {
  describe('with the offline model (no keys)', () => {
    let environment: TestEnvironment;
    let stack: EmbeddedStack;

    beforeAll(async () => {
      environment = await createTestEnvironment('tools-offline', 'in-process');
      stack = await bootEmbedded({ ...environment.env, OFFLINE_TOKEN_DELAY_MS: '0' });
    });
    afterAll(async () => {
      await stack?.close();
      await environment?.cleanup();
    });

    it('calls the clock for "what time is it", shows the phase, keeps the call in the reply, exports it and deletes it', async () => {
      const { api, chatId, send } = await conversation(stack);
      const { events } = await send('What time is it?');
      expect(phases(events)).toContainEqual({ phase: 'tool', tool: 'current_time', label: 'Checking the time' });
      expect(texts(events)).toMatch(/^It is .+ \(UTC\)\.$/);
      const reply = replyOf(events);
      expect(reply.metadata.tools).toEqual([
        {
          call_id: 'offline_call_current_time',
          name: 'current_time',
          arguments: {},
          status: 'ok',
          summary: expect.stringContaining('(UTC)'),
          duration_ms: expect.any(Number),
        },
      ]);
      // The history and the export keep it.
      const stored = await api.get(`/api/v1/messages/all_user_messages?chat_ids=${chatId}`).expect(200);
      expect(stored.body.find((m: { message_id: string }) => m.message_id === reply.message_id).metadata.tools).toHaveLength(1);
      const zip = await binary(api.get('/api/v1/users/me/export')).expect(200);
      const chat = JSON.parse(strFromU8(unzipSync(new Uint8Array(zip.body as Buffer))['chat.json']));
      expect(JSON.stringify(chat.message)).toContain('"current_time"');
      await api.delete('/api/v1/users/me').expect(204);
    });
  });

  describe.each(['openai', 'openai-compatible'] as const)('with native tool calling (%s, through the real SDK)', (provider) => {
    let environment: TestEnvironment;
    let stack: EmbeddedStack;
    const server = new FakeOpenAI();
    const endpoint = provider === 'openai' ? 'responses' : 'chat.completions';

    beforeAll(async () => {
      await server.start();
      environment = await createTestEnvironment(`tools-${provider}`, 'in-process');
      stack = await bootEmbedded({
        ...environment.env,
        LLM_PROVIDER: provider,
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: server.baseURL,
        CHAT_MODEL: 'tool-model',
        CHAT_WEB_SEARCH: 'false',
        CHAT_IMAGE_GENERATION: 'false',
      });
    });
    afterAll(async () => {
      await stack?.close();
      await environment?.cleanup();
      await server.stop();
    });
    beforeEach(() => server.reset());

    it('runs the call, gives the result back, and a malformed call goes back to the model as an error', async () => {
      server.script(endpoint, [{ toolCall: { name: 'current_time', arguments: { time_zone: 'Europe/Lisbon' }, callId: 'c1' } }]);
      server.script(endpoint, [{ toolCall: { name: 'current_time', arguments: { time_zone: 'Mars/Olympus' }, callId: 'c2' } }]);
      server.script(endpoint, 'It is morning in Lisbon.');
      const { events } = await send();
      async function send() {
        const { send: post } = await conversation(stack);
        return post('What time is it in Lisbon?');
      }
      expect(texts(events)).toBe('It is morning in Lisbon.');
      expect(events.filter((e) => e.event === 'error')).toEqual([]);
      const reply = replyOf(events);
      expect(reply.metadata.tools.map((t: { status: string; call_id: string }) => [t.call_id, t.status])).toEqual([
        ['c1', 'ok'],
        ['c2', 'error'],
      ]);
      const requests = server.requests(endpoint).filter((r) => r.stream);
      expect(requests).toHaveLength(3);
      const offered = JSON.stringify(requests[0].body.tools);
      expect(offered).toContain('current_time');
      // The second request carries the first call's result; the third the refusal of the bad time zone.
      expect(JSON.stringify(requests[1].body)).toContain('Europe/Lisbon');
      expect(JSON.stringify(requests[2].body)).toContain('must be an IANA time zone');
    });
  });

  describe('web search with citations', () => {
    let environment: TestEnvironment;
    let stack: EmbeddedStack;
    let offline: EmbeddedStack;
    const server = new FakeOpenAI();
    const web = new FakeWeb();
    /** The streamed replies, in order; a title (asked after each exchange, not streamed) never takes one of them. */
    const plan: ChatReplyInput[] = [];
    const script = (...replies: ChatReplyInput[]) => plan.push(...replies);
    server.setDefaultReply('chat.completions', (body) => (body.stream ? (plan.shift() ?? 'OK') : 'A title'));

    beforeAll(async () => {
      await Promise.all([server.start(), web.start()]);
      web
        .searchResults([
          { title: 'Tram 28', url: `${web.url}/tram-28`, snippet: 'The most famous line.' },
          { title: 'Carris', url: 'https://carris.example/', snippet: 'Timetables.' },
        ])
        .page('/tram-28', {
          title: 'Tram 28 in Lisbon',
          paragraphs: [
            'Tram 28 runs from Martim Moniz to Campo de Ourique through Graça, Alfama, Baixa and Estrela, on the old yellow Remodelado cars.',
            'It is the most famous line of the city, and the busiest with visitors, so locals take it early in the morning or late in the evening.',
          ],
        });
      environment = await createTestEnvironment('tools-search', 'in-process');
      const common = { ...environment.env, OFFLINE_TOKEN_DELAY_MS: '0', SEARXNG_URL: web.url, TOOLS_PRIVATE_HOSTS: new URL(web.url).host };
      stack = await bootEmbedded({
        ...common,
        LLM_PROVIDER: 'openai-compatible',
        OPENAI_BASE_URL: server.baseURL,
        CHAT_MODEL: 'tool-model',
      });
      offline = await bootEmbedded({ ...common, PORT: '0' });
    });
    afterAll(async () => {
      await stack?.close();
      await offline?.close();
      await environment?.cleanup();
      await Promise.all([server.stop(), web.stop()]);
    });

    it('searches, reads a page, and answers with numbered markers pointing to the sources listed under the reply', async () => {
      script(
        [{ toolCall: { name: 'search_web', arguments: { query: 'tram 28 lisbon' }, callId: 's1' } }],
        [{ toolCall: { name: 'read_page', arguments: { url: `${web.url}/tram-28` }, callId: 'r1' } }],
        'Tram 28 runs from Martim Moniz to Campo de Ourique [1]; see also Carris [2].',
      );
      const { send } = await conversation(stack);
      const { events } = await send('Tell me about tram 28, with sources');
      expect(phases(events).filter((p) => p.phase === 'tool')).toEqual([
        { phase: 'tool', tool: 'search_web', label: 'Searching the web' },
        { phase: 'tool', tool: 'read_page', label: 'Reading 127.0.0.1' },
      ]);
      const reply = replyOf(events);
      expect(reply.content).toContain('[1]');
      expect(reply.metadata.citations).toEqual([
        { n: 1, title: 'Tram 28', url: `${web.url}/tram-28`, site: '127.0.0.1' },
        { n: 2, title: 'Carris', url: 'https://carris.example/', site: 'carris.example' },
      ]);
      // The model was told to cite, was given numbered results, then the readable text of the page (same number).
      const [first, second, third] = server.requests('chat.completions').filter((r) => r.stream);
      expect(JSON.stringify(first.body.messages)).toContain('cite it with its number in square brackets');
      expect(JSON.stringify(second.body.messages)).toContain('\\"n\\":1');
      const pageResult = (third.body.messages as { role: string; content: string }[]).find(
        (m) => m.role === 'tool' && m.content.includes('Martim Moniz'),
      )!;
      expect(JSON.parse(pageResult.content)).toMatchObject({ n: 1, title: 'Tram 28 in Lisbon' });
      expect(pageResult.content).not.toContain('Cookie settings');
    });

    it('tells the model a page inside the network was not read, and the reply goes on', async () => {
      script(
        [{ toolCall: { name: 'read_page', arguments: { url: 'http://127.0.0.1:1/admin' }, callId: 'r2' } }],
        'I could not read that page.',
      );
      const { send } = await conversation(stack);
      const { events } = await send('Read http://127.0.0.1:1/admin');
      const reply = replyOf(events);
      expect(reply.content).toBe('I could not read that page.');
      expect(reply.metadata.tools).toEqual([
        expect.objectContaining({
          name: 'read_page',
          status: 'refused',
          summary: 'The page was not read: 127.0.0.1 is not a public address.',
        }),
      ]);
    });

    it('lets the offline model search for an explicit request, listing the sources', async () => {
      const { send } = await conversation(offline);
      const { events } = await send('Search the web for tram 28 lisbon');
      const reply = replyOf(events);
      expect(reply.content).toContain('Tram 28 (127.0.0.1) [1]');
      expect(reply.metadata.citations).toHaveLength(2);
    });
  });

  describe('with web search off (nothing configured)', () => {
    let environment: TestEnvironment;
    let stack: EmbeddedStack;
    beforeAll(async () => {
      environment = await createTestEnvironment('tools-nosearch', 'in-process');
      stack = await bootEmbedded({ ...environment.env, OFFLINE_TOKEN_DELAY_MS: '0' });
    });
    afterAll(async () => {
      await stack?.close();
      await environment?.cleanup();
    });

    it('offers no search tool and says so', async () => {
      const { send } = await conversation(stack);
      const { events } = await send('Search the web for tram 28');
      expect(replyOf(events).content).toMatch(/^Web search is not configured on this server/);
      expect(replyOf(events).metadata.tools).toBeUndefined();
    });
  });
});
