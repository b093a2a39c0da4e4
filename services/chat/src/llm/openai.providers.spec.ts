import { FakeOpenAI } from '@app/testing';
import OpenAI from 'openai';
import { LlmError, MODEL_FAILED } from './llm-error';
import { anLlmRequest as request, collect } from '../testing/builders';
import type { LlmEvent } from './llm-provider';
import { toLlmError } from './openai-client';
import { OpenAiCompatibleProvider, OpenAiResponsesProvider } from './openai.providers';

const KEY = 'sk-unit-test-key';

/** What a stream yielded before it ended, and how it ended. */
async function outcome(stream: AsyncIterable<LlmEvent>): Promise<{ events: LlmEvent[]; error: unknown }> {
  const events: LlmEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
    return { events, error: null };
  } catch (error) {
    return { events, error };
  }
}

const text = (events: LlmEvent[]) => events.flatMap((e) => (e.type === 'text' ? [e.delta] : [])).join('');
const reasoning = (events: LlmEvent[]) => events.flatMap((e) => (e.type === 'reasoning' ? [e.delta] : [])).join('');
const llmError = (kind: LlmError['kind'], detail: string) => expect.objectContaining({ name: 'LlmError', kind, detail });

/** The providers driven through the real `openai` SDK against the scripted fake OpenAI server. */
describe('the OpenAI providers', () => {
  const fake = new FakeOpenAI({ apiKey: KEY });
  let responses: OpenAiResponsesProvider;
  let compatible: OpenAiCompatibleProvider;

  beforeAll(async () => {
    await fake.start();
    responses = new OpenAiResponsesProvider(KEY, fake.baseURL);
    compatible = new OpenAiCompatibleProvider(KEY, fake.baseURL);
  });
  afterAll(() => fake.stop());
  beforeEach(() => fake.reset());

  // A retried error answers at once (the SDK reads retry-after-ms).
  const soon = { 'retry-after-ms': '1' };

  describe('the Responses API', () => {
    it('describes itself as a real model', () => {
      expect(responses.describe()).toEqual({ id: 'openai', label: 'OpenAI', offline: false });
    });

    it('streams reasoning, the search, text and images, saying which request and model answered', async () => {
      fake.script('responses', {
        model: 'fast-2026',
        steps: [
          { reasoning: 'Weighing options.' },
          { webSearch: { query: 'lisbon' } },
          { text: 'Here it is.' },
          { image: { partials: 2 } },
        ],
      });
      const events = await collect(responses.stream(request({ reasoning: true, webSearch: true, imageGeneration: true })));
      const sent = fake.requests('responses')[0];
      expect(events[0]).toEqual({ type: 'meta', requestId: sent.requestId, model: 'fast' });
      expect(reasoning(events)).toBe('Weighing options.');
      expect(text(events)).toBe('Here it is.');
      expect(events.filter((e) => e.type === 'searching').length).toBeGreaterThan(0);
      expect(events.flatMap((e) => (e.type === 'image_partial' ? [e.index] : []))).toEqual([0, 1]);
      const image = events.find((e) => e.type === 'image');
      expect(image).toMatchObject({ mimeType: 'image/png' });
      expect(
        Buffer.from((image as { base64: string }).base64, 'base64')
          .subarray(1, 4)
          .toString(),
      ).toBe('PNG');
      expect(events.at(-1)).toEqual({ type: 'meta', requestId: null, model: 'fast-2026' });
      expect(sent.body).toMatchObject({
        model: 'fast',
        instructions: 'Be brief.',
        stream: true,
        reasoning: { summary: 'auto' },
        tools: [{ type: 'web_search' }, { type: 'image_generation', partial_images: 3 }],
      });
      expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    });

    it('asks for no tools or reasoning it was not told to', async () => {
      await collect(responses.stream(request()));
      expect(fake.requests('responses')[0].body).not.toHaveProperty('tools');
      expect(fake.requests('responses')[0].body).not.toHaveProperty('reasoning');
    });

    it("shows a user turn's documents before its words and its images after; other turns are plain words", async () => {
      await collect(
        responses.stream(
          request({
            turns: [
              { role: 'user', content: 'Earlier', attachments: [] },
              { role: 'assistant', content: 'Sure.' },
              {
                role: 'user',
                content: 'What is this?',
                attachments: [
                  { kind: 'image', filename: 'leaf.png', dataUrl: 'data:image/png;base64,AAAA' },
                  { kind: 'text', filename: 'say "hi".txt', text: 'basil', truncated: true },
                ],
              },
            ],
          }),
        ),
      );
      expect(fake.requests('responses')[0].body.input).toEqual([
        { role: 'user', content: 'Earlier' },
        { role: 'assistant', content: 'Sure.' },
        {
          role: 'user',
          content: [
            { type: 'input_text', text: `<file name="say 'hi'.txt" truncated="true">\nbasil\n</file>` },
            { type: 'input_text', text: 'What is this?' },
            { type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'auto' },
          ],
        },
      ]);
    });

    it('keeps what came before a failure reported mid-stream, then fails with what the model said', async () => {
      fake.script('responses', [{ text: 'Half an ans' }, { fail: { message: 'overloaded' } }]);
      const { events, error } = await outcome(responses.stream(request()));
      expect(text(events)).toBe('Half an ans');
      expect(error).toEqual(llmError('unavailable', 'The model failed: overloaded'));
    });

    it('maps the HTTP failures of the API to the neutral kinds', async () => {
      const cases: [string, object[], LlmError['kind'], string][] = [
        [
          'rate limited (after the retry)',
          [
            { status: 429, headers: soon },
            { status: 429, headers: soon },
          ],
          'rate_limited',
          'The model is busy right now. Please try again in a moment.',
        ],
        [
          'a server error (after the retry)',
          [
            { status: 500, headers: soon },
            { status: 500, headers: soon },
          ],
          'unavailable',
          'The model failed to answer (500). Please try again.',
        ],
        [
          'a bad request',
          [{ status: 400, error: { message: 'Unknown model' } }],
          'refused',
          'The model failed to answer (400). Please try again.',
        ],
        ['not found', [{ status: 404 }], 'refused', 'The model failed to answer (404). Please try again.'],
      ];
      for (const [what, replies, kind, detail] of cases) {
        fake.reset();
        fake.script('responses', ...(replies as never[]));
        expect([what, (await outcome(responses.stream(request()))).error]).toEqual([what, llmError(kind, detail)]);
        expect(fake.requests('responses')).toHaveLength(replies.length);
      }
    });

    it('says the credentials were refused when the key is wrong', async () => {
      const intruder = new OpenAiResponsesProvider('sk-wrong', fake.baseURL);
      expect((await outcome(intruder.stream(request()))).error).toEqual(
        llmError('refused', 'The model refused our credentials. Please tell the operator.'),
      );
    });

    it('says the model failed when the connection drops mid-stream, or an error event ends it', async () => {
      fake.script(
        'responses',
        [{ text: 'cut' }, { delayMs: 20 }, { abort: true }],
        [{ text: 'Partial' }, { fail: { message: 'Too Many Requests', code: 'rate_limit_exceeded', as: 'error' } }],
      );
      const dropped = await outcome(responses.stream(request()));
      expect(text(dropped.events)).toBe('cut');
      expect(dropped.error).toEqual(llmError('unavailable', MODEL_FAILED));
      const ended = await outcome(responses.stream(request()));
      expect(text(ended.events)).toBe('Partial');
      // The SDK throws the error event itself (an APIError without a status).
      expect(ended.error).toEqual(llmError('unavailable', MODEL_FAILED));
    });

    it('says the model could not be reached when nobody listens', async () => {
      const nowhere = new FakeOpenAI();
      await nowhere.start();
      const url = nowhere.baseURL;
      await nowhere.stop();
      const { error } = await outcome(new OpenAiResponsesProvider(KEY, url).stream(request()));
      expect(error).toEqual(llmError('unavailable', 'The model could not be reached. Please try again.'));
    });

    it('ends quietly, with what came, once its request is aborted (mid-stream or before the answer)', async () => {
      fake.script(
        'responses',
        { steps: [{ text: 'one two three four five six' }], intervalMs: 30 },
        { headersDelayMs: 5_000, steps: [{ text: 'late' }] },
      );
      const stop = new AbortController();
      const events: LlmEvent[] = [];
      for await (const event of responses.stream(request({ signal: stop.signal }))) {
        events.push(event);
        if (event.type === 'text') stop.abort();
      }
      expect(text(events)).toBe('one');
      const early = new AbortController();
      const waiting = outcome(responses.stream(request({ signal: early.signal })));
      early.abort();
      expect(await waiting).toEqual({ events: [], error: null });
    });

    it('completes a short prompt without streaming, its failures as LlmErrors', async () => {
      fake.script('responses', 'Trip to Rome');
      const signal = new AbortController().signal;
      expect(await responses.complete({ model: 'fast', system: 'Title it', prompt: 'Rome in May?', signal })).toBe('Trip to Rome');
      expect(fake.requests('responses')[0].body).toMatchObject({ model: 'fast', instructions: 'Title it', input: 'Rome in May?' });
      expect(fake.requests('responses')[0].stream).toBe(false);
      fake.script('responses', { status: 500, headers: soon }, { status: 500, headers: soon });
      await expect(responses.complete({ model: 'fast', system: 'Title it', prompt: 'x', signal })).rejects.toEqual(
        llmError('unavailable', 'The model failed to answer (500). Please try again.'),
      );
    });
  });

  describe('Chat Completions (OpenAI-compatible servers)', () => {
    it('describes itself as a real model', () => {
      expect(compatible.describe()).toEqual({ id: 'openai-compatible', label: 'OpenAI-compatible server', offline: false });
    });

    it('streams reasoning and text, the system prompt first, saying which request and model answered', async () => {
      fake.script('chat.completions', { model: 'llama3.2:3b', steps: [{ reasoning: 'Thinking it over.' }, { text: 'Hello from llama.' }] });
      const events = await collect(
        compatible.stream(
          request({
            model: 'llama3.2',
            turns: [
              { role: 'user', content: 'Hi' },
              { role: 'assistant', content: 'Yes?' },
              { role: 'user', content: 'Again' },
            ],
          }),
        ),
      );
      const sent = fake.requests('chat.completions')[0];
      expect(events[0]).toEqual({ type: 'meta', requestId: sent.requestId, model: 'llama3.2' });
      expect(reasoning(events)).toBe('Thinking it over.');
      expect(text(events)).toBe('Hello from llama.');
      expect(events.filter((e) => e.type === 'meta').at(-1)).toEqual({ type: 'meta', requestId: null, model: 'llama3.2:3b' });
      expect(sent.body).toMatchObject({ model: 'llama3.2', stream: true });
      expect(sent.body.messages).toEqual([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Yes?' },
        { role: 'user', content: 'Again' },
      ]);
    });

    it("reads reasoning from vLLM's `reasoning` field too", async () => {
      fake.script('chat.completions', { reasoningField: 'reasoning', steps: [{ reasoning: 'hmm' }, { text: 'ok' }] });
      const events = await collect(compatible.stream(request()));
      expect([reasoning(events), text(events)]).toEqual(['hmm', 'ok']);
    });

    it('sends attachments as parts: documents, the words, images', async () => {
      await collect(
        compatible.stream(
          request({
            turns: [
              {
                role: 'user',
                content: 'Look',
                attachments: [
                  { kind: 'image', filename: 'a.png', dataUrl: 'data:image/png;base64,AA' },
                  { kind: 'text', filename: 'n.txt', text: 'notes', truncated: false },
                ],
              },
            ],
          }),
        ),
      );
      expect((fake.requests('chat.completions')[0].body.messages as unknown[])[1]).toEqual({
        role: 'user',
        content: [
          { type: 'text', text: '<file name="n.txt">\nnotes\n</file>' },
          { type: 'text', text: 'Look' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AA' } },
        ],
      });
    });

    it('maps an HTTP error, an error mid-stream and a dropped connection to LlmErrors, keeping what came', async () => {
      fake.script(
        'chat.completions',
        { status: 500, error: { message: 'model not loaded' }, headers: soon },
        { status: 500, error: { message: 'model not loaded' }, headers: soon },
      );
      expect((await outcome(compatible.stream(request()))).error).toEqual(
        llmError('unavailable', 'The model failed to answer (500). Please try again.'),
      );
      fake.script('chat.completions', [{ text: 'Partial' }, { fail: { message: 'Overloaded mid-way' } }]);
      const midway = await outcome(compatible.stream(request()));
      expect(text(midway.events)).toBe('Partial');
      expect(midway.error).toEqual(llmError('unavailable', MODEL_FAILED));
      fake.script('chat.completions', [{ text: 'Part' }, { delayMs: 20 }, { abort: true }]);
      const dropped = await outcome(compatible.stream(request()));
      expect(text(dropped.events)).toBe('Part');
      expect(dropped.error).toEqual(llmError('unavailable', MODEL_FAILED));
    });

    it('completes a short prompt as a system and a user message', async () => {
      fake.script('chat.completions', 'Trip to Rome');
      expect(
        await compatible.complete({ model: 'llama3.2', system: 'Title it', prompt: 'Rome?', signal: new AbortController().signal }),
      ).toBe('Trip to Rome');
      expect(fake.requests('chat.completions')[0].body).toMatchObject({
        model: 'llama3.2',
        messages: [
          { role: 'system', content: 'Title it' },
          { role: 'user', content: 'Rome?' },
        ],
      });
      const intruder = new OpenAiCompatibleProvider('sk-wrong', fake.baseURL);
      await expect(intruder.complete({ model: 'm', system: 's', prompt: 'p', signal: new AbortController().signal })).rejects.toEqual(
        llmError('refused', 'The model refused our credentials. Please tell the operator.'),
      );
    });
  });

  describe('native tool calling, on both transports', () => {
    const weather = {
      name: 'weather',
      description: 'The weather of a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    };
    const calls = (events: LlmEvent[]) => events.flatMap((e) => (e.type === 'tool_call' ? [e.call] : []));
    /** The conversation after a call: what the model said and asked, then the tool's result. */
    const afterCall = (id: string) =>
      request({
        tools: [weather],
        turns: [
          { role: 'user', content: 'How warm is Lisbon?' },
          { role: 'tool_calls', content: 'Let me look.', calls: [{ id, name: 'weather', arguments: '{"city":"Lisbon"}' }] },
          { role: 'tool_result', callId: id, name: 'weather', output: '{"celsius":21}' },
        ],
      });

    it('Responses: offers function tools, reads the function call, and gives its output back', async () => {
      fake.script('responses', [
        { text: 'Let me look.' },
        { toolCall: { name: 'weather', arguments: { city: 'Lisbon' }, callId: 'call_1', chunk: 4 } },
      ]);
      const events = await collect(responses.stream(request({ tools: [weather] })));
      expect(text(events)).toBe('Let me look.');
      expect(calls(events)).toEqual([{ id: 'call_1', name: 'weather', arguments: '{"city":"Lisbon"}' }]);
      expect(fake.requests('responses')[0].body.tools).toEqual([{ type: 'function', strict: false, ...weather }]);

      fake.script('responses', 'It is 21 °C.');
      const answer = await collect(responses.stream(afterCall('call_1')));
      expect(text(answer)).toBe('It is 21 °C.');
      expect(fake.requests('responses')[1].body.input).toEqual([
        { role: 'user', content: 'How warm is Lisbon?' },
        { role: 'assistant', content: 'Let me look.' },
        { type: 'function_call', call_id: 'call_1', name: 'weather', arguments: '{"city":"Lisbon"}' },
        { type: 'function_call_output', call_id: 'call_1', output: '{"celsius":21}' },
      ]);
    });

    it('Chat Completions: offers tools, gathers a call streamed in pieces (several at once), and gives the result back', async () => {
      fake.script('chat.completions', [
        { toolCall: { name: 'weather', arguments: { city: 'Lisbon' }, callId: 'call_a', chunk: 3 } },
        { toolCall: { name: 'weather', arguments: { city: 'Porto' }, callId: 'call_b', chunk: 5 } },
      ]);
      const events = await collect(compatible.stream(request({ tools: [weather] })));
      expect(calls(events)).toEqual([
        { id: 'call_a', name: 'weather', arguments: '{"city":"Lisbon"}' },
        { id: 'call_b', name: 'weather', arguments: '{"city":"Porto"}' },
      ]);
      expect(fake.requests('chat.completions')[0].body.tools).toEqual([{ type: 'function', function: weather }]);

      fake.script('chat.completions', 'It is 21 °C.');
      const answer = await collect(compatible.stream(afterCall('call_a')));
      expect(text(answer)).toBe('It is 21 °C.');
      expect(fake.requests('chat.completions')[1].body.messages).toEqual([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'How warm is Lisbon?' },
        {
          role: 'assistant',
          content: 'Let me look.',
          tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'weather', arguments: '{"city":"Lisbon"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_a', content: '{"celsius":21}' },
      ]);
    });

    it('offers no tools when there are none (a server without tool support is never sent an empty list)', async () => {
      await collect(responses.stream(request()));
      await collect(compatible.stream(request({ tools: [] })));
      expect(fake.requests('responses')[0].body).not.toHaveProperty('tools');
      expect(fake.requests('chat.completions')[0].body).not.toHaveProperty('tools');
    });
  });
});

describe("toLlmError (the SDK's failures in words for the user)", () => {
  it('keeps an LlmError as it is', () => {
    const error = new LlmError('timeout', 'The model stopped answering.');
    expect(toLlmError(error)).toBe(error);
  });

  it('maps the SDK timeout, unreadable output and anything else, keeping the cause', () => {
    const timeout = new OpenAI.APIConnectionTimeoutError();
    expect(toLlmError(timeout)).toEqual(llmError('timeout', 'The model took too long to answer.'));
    expect(toLlmError(timeout).cause).toBe(timeout);
    expect(toLlmError(new SyntaxError('Unexpected token'))).toEqual(llmError('bad_output', MODEL_FAILED));
    expect(toLlmError(new Error('socket hang up'))).toEqual(llmError('unavailable', MODEL_FAILED));
    expect(toLlmError('a string')).toEqual(llmError('unavailable', MODEL_FAILED));
  });

  it('tells a refusal (4xx) from an outage (5xx)', () => {
    const status = (code: number) => OpenAI.APIError.generate(code, { message: 'x' }, undefined, new Headers());
    expect(toLlmError(status(403)).kind).toBe('refused');
    expect(toLlmError(status(422)).kind).toBe('refused');
    expect(toLlmError(status(503))).toEqual(llmError('unavailable', 'The model failed to answer (503). Please try again.'));
  });
});
