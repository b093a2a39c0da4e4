import { performance } from 'node:perf_hooks';
import { inflateSync } from 'node:zlib';
import OpenAI, { APIConnectionError, APIError, APIUserAbortError, AuthenticationError, InternalServerError, RateLimitError } from 'openai';
import { zodTextFormat } from 'openai/helpers/zod';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { z } from 'zod';
import { FakeOpenAI, fakePng, splitText, type FakeOpenAIEmitted } from './fake-openai';

const MODEL = 'gpt-5-mini';

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const events: T[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

function types(events: { type: string }[]): string[] {
  return events.map((event) => event.type);
}

/** How a streamed text reply opens, before its first delta. */
const TEXT_OPENING = ['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added'];

/** Width, height and pixel bytes of a PNG, checking its signature and chunk CRCs by decoding it. */
function decodePng(png: Buffer): { width: number; height: number; pixels: Buffer } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  let offset = 8;
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
    }
    if (type === 'IDAT') idat.push(data);
    offset += 12 + length;
  }
  return { width, height, pixels: inflateSync(Buffer.concat(idat)) };
}

describe('FakeOpenAI', () => {
  const fake = new FakeOpenAI({ apiKey: 'sk-test-key' });
  let client: OpenAI;

  beforeAll(async () => {
    await fake.start();
    client = new OpenAI({ apiKey: 'sk-test-key', baseURL: fake.baseURL, maxRetries: 0 });
  });
  afterAll(() => fake.stop());
  beforeEach(() => fake.reset());

  describe('splitText', () => {
    it('cuts words with their leading whitespace, or every N code points', () => {
      expect(splitText('Hello brave  new world!\n')).toEqual(['Hello', ' brave', '  new', ' world!\n']);
      expect(splitText('  leading')).toEqual(['  leading']);
      expect(splitText('abcdefg', 3)).toEqual(['abc', 'def', 'g']);
      expect(splitText('😀😀😀', 2)).toEqual(['😀😀', '😀']);
      expect(splitText('')).toEqual([]);
    });
  });

  describe('POST /v1/responses, streamed', () => {
    it('streams a text reply in the exact event order, word by word, with usage and the request id', async () => {
      fake.script('responses', 'Hello there, world.');
      const {
        data: stream,
        request_id,
        response,
      } = await client.responses.create({ model: MODEL, input: 'Say hello', stream: true }).withResponse();
      expect(request_id).toMatch(/^req_[0-9a-f]{32}$/);
      expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      const events = await collect(stream);
      expect(types(events)).toEqual([
        ...TEXT_OPENING,
        'response.output_text.delta',
        'response.output_text.delta',
        'response.output_text.delta',
        'response.output_text.done',
        'response.content_part.done',
        'response.output_item.done',
        'response.completed',
      ]);
      expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, i) => i));
      const deltas = events.filter((event) => event.type === 'response.output_text.delta');
      expect(deltas.map((event) => event.delta)).toEqual(['Hello', ' there,', ' world.']);
      const created = events[0] as Extract<ResponseStreamEvent, { type: 'response.created' }>;
      expect(created.response).toMatchObject({ object: 'response', status: 'in_progress', model: MODEL, output: [], usage: null });
      const done = events[9] as Extract<ResponseStreamEvent, { type: 'response.output_item.done' }>;
      expect(done.item).toEqual({
        id: expect.stringMatching(/^msg_[0-9a-f]{48}$/),
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'Hello there, world.' }],
      });
      const completed = events[10] as Extract<ResponseStreamEvent, { type: 'response.completed' }>;
      expect(completed.response.status).toBe('completed');
      expect(completed.response.id).toBe(created.response.id);
      expect(completed.response.usage).toMatchObject({ output_tokens: 3, output_tokens_details: { reasoning_tokens: 0 } });
      expect(completed.response.usage!.total_tokens).toBe(completed.response.usage!.input_tokens + 3);
      expect(fake.emitted(request_id!).map((entry) => entry.event)).toEqual(types(events));
    });

    it('is parsed by the SDK stream helper into the final response (reasoning summary, then text)', async () => {
      fake.script('responses', { steps: [{ reasoning: 'The user greets me.' }, { reasoning: 'Answer briefly.' }, { text: 'Hi!' }] });
      const stream = client.responses.stream({ model: MODEL, input: 'Hello', reasoning: { effort: 'low', summary: 'auto' } });
      const summaryDeltas: string[] = [];
      stream.on('response.reasoning_summary_text.delta', (event) => summaryDeltas.push(event.delta));
      const events = await collect(stream);
      const final = await stream.finalResponse();
      expect(types(events)).toEqual([
        'response.created',
        'response.in_progress',
        'response.output_item.added',
        'response.reasoning_summary_part.added',
        'response.reasoning_summary_text.delta',
        'response.reasoning_summary_text.delta',
        'response.reasoning_summary_text.delta',
        'response.reasoning_summary_text.delta',
        'response.reasoning_summary_text.done',
        'response.reasoning_summary_part.done',
        'response.reasoning_summary_part.added',
        'response.reasoning_summary_text.delta',
        'response.reasoning_summary_text.delta',
        'response.reasoning_summary_text.done',
        'response.reasoning_summary_part.done',
        'response.output_item.done',
        'response.output_item.added',
        'response.content_part.added',
        'response.output_text.delta',
        'response.output_text.done',
        'response.content_part.done',
        'response.output_item.done',
        'response.completed',
      ]);
      expect(summaryDeltas.join('')).toBe('The user greets me.Answer briefly.');
      expect(final.output_text).toBe('Hi!');
      expect(final.output[0]).toEqual({
        id: expect.stringMatching(/^rs_/),
        type: 'reasoning',
        summary: [
          { type: 'summary_text', text: 'The user greets me.' },
          { type: 'summary_text', text: 'Answer briefly.' },
        ],
      });
      expect(final.reasoning).toEqual({ effort: 'low', summary: 'auto' });
      expect(final.usage).toMatchObject({ output_tokens: 7, output_tokens_details: { reasoning_tokens: 6 } });
      expect(fake.requests('responses')[0].headers['x-stainless-helper-method']).toBe('stream');
    });

    it('streams a web search call', async () => {
      fake.script('responses', [{ webSearch: { query: 'weather Paris', sources: ['https://weather.example/paris'] } }, { text: 'Sunny.' }]);
      const stream = client.responses.stream({ model: MODEL, input: 'Weather in Paris?', tools: [{ type: 'web_search' }] });
      const events = await collect(stream);
      expect(types(events).slice(2, 7)).toEqual([
        'response.output_item.added',
        'response.web_search_call.in_progress',
        'response.web_search_call.searching',
        'response.web_search_call.completed',
        'response.output_item.done',
      ]);
      const final = await stream.finalResponse();
      expect(final.output[0]).toEqual({
        id: expect.stringMatching(/^ws_[0-9a-f]{48}$/),
        type: 'web_search_call',
        status: 'completed',
        action: { type: 'search', query: 'weather Paris', sources: [{ type: 'url', url: 'https://weather.example/paris' }] },
      });
      expect(final.output_text).toBe('Sunny.');
      expect(final.tools).toEqual([{ type: 'web_search' }]);
    });

    it('streams image generation with partial images 0..2 and a real PNG result', async () => {
      fake.script('responses', [{ image: { partials: 3, prompt: 'a red square' } }]);
      const events = await collect(
        await client.responses.create({
          model: MODEL,
          input: 'Draw a red square',
          tools: [{ type: 'image_generation', partial_images: 3 }],
          stream: true,
        }),
      );
      expect(types(events)).toEqual([
        'response.created',
        'response.in_progress',
        'response.output_item.added',
        'response.image_generation_call.in_progress',
        'response.image_generation_call.generating',
        'response.image_generation_call.partial_image',
        'response.image_generation_call.partial_image',
        'response.image_generation_call.partial_image',
        'response.image_generation_call.completed',
        'response.output_item.done',
        'response.completed',
      ]);
      const partials = events.filter((event) => event.type === 'response.image_generation_call.partial_image');
      expect(partials.map((event) => event.partial_image_index)).toEqual([0, 1, 2]);
      for (const partial of partials)
        expect(decodePng(Buffer.from(partial.partial_image_b64, 'base64'))).toMatchObject({ width: 4, height: 4 });
      const done = events[9] as Extract<ResponseStreamEvent, { type: 'response.output_item.done' }>;
      expect(done.item).toMatchObject({
        type: 'image_generation_call',
        status: 'completed',
        output_format: 'png',
        revised_prompt: 'a red square',
      });
      const result = Buffer.from((done.item as { result: string }).result, 'base64');
      expect(result).toEqual(fakePng());
      const { width, height, pixels } = decodePng(result);
      expect([width, height]).toEqual([4, 4]);
      expect(pixels.length).toBe(4 * (1 + 4 * 3));
      expect([...pixels.subarray(1, 4)]).toEqual([220, 40, 40]);
    });

    it('reports response.failed mid-stream as an event carrying the error (the SDK does not throw)', async () => {
      fake.script('responses', [{ text: 'Partial answer' }, { fail: { message: 'The model crashed.', code: 'server_error' } }]);
      const events = await collect(await client.responses.create({ model: MODEL, input: 'x', stream: true }));
      expect(types(events)).toEqual([...TEXT_OPENING, 'response.output_text.delta', 'response.output_text.delta', 'response.failed']);
      const failed = events[6] as Extract<ResponseStreamEvent, { type: 'response.failed' }>;
      expect(failed.response.status).toBe('failed');
      expect(failed.response.error).toEqual({ code: 'server_error', message: 'The model crashed.' });
    });

    it('reports an error event mid-stream, which the SDK throws as an APIError with the request id', async () => {
      fake.script('responses', [
        { text: 'Partial' },
        { fail: { message: 'Too Many Requests', code: 'rate_limit_exceeded', type: 'too_many_requests', as: 'error' } },
      ]);
      const stream = await client.responses.create({ model: MODEL, input: 'x', stream: true });
      const seen: string[] = [];
      const error = await (async () => {
        for await (const event of stream) seen.push(event.type);
      })().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(seen).toEqual([...TEXT_OPENING, 'response.output_text.delta']);
      expect(error).toBeInstanceOf(APIError);
      expect(error).toMatchObject({
        status: undefined,
        code: 'rate_limit_exceeded',
        type: 'too_many_requests',
        message: 'Too Many Requests',
        requestID: fake.requests()[0].requestId,
      });
      const last = fake.emitted().at(-1) as FakeOpenAIEmitted;
      expect(last.event).toBe('error');
      expect(last.data).toEqual({
        type: 'error',
        code: 'rate_limit_exceeded',
        message: 'Too Many Requests',
        param: null,
        error: { type: 'too_many_requests', code: 'rate_limit_exceeded', message: 'Too Many Requests', param: null },
        sequence_number: 5,
      });
    });

    it('stalls forever after the first delta; an AbortController timeout ends the iteration (silently)', async () => {
      fake.script('responses', [{ text: 'Thinking' }, { stall: true }, { text: ' never sent' }]);
      const controller = new AbortController();
      const stream = await client.responses.create({ model: MODEL, input: 'x', stream: true }, { signal: controller.signal });
      const started = performance.now();
      const timer = setTimeout(() => controller.abort(), 150);
      const events = await collect(stream);
      clearTimeout(timer);
      expect(performance.now() - started).toBeGreaterThanOrEqual(140);
      expect(controller.signal.aborted).toBe(true);
      expect(types(events).at(-1)).toBe('response.output_text.delta');
      expect(types(events)).not.toContain('response.completed');
    });

    it('the stream helper rejects with APIUserAbortError on the same stall', async () => {
      fake.script('responses', [{ stall: true }]);
      const stream = client.responses.stream({ model: MODEL, input: 'x' }, { signal: AbortSignal.timeout(100) });
      await expect(stream.finalResponse()).rejects.toBeInstanceOf(APIUserAbortError);
    });

    it('a stall of N ms resumes; delays are recorded with timestamps close to when the client received them', async () => {
      fake.script('responses', [{ text: 'one two', intervalMs: 40 }, { delayMs: 80 }, { text: ' three' }, { stall: 60 }]);
      const { data: stream, request_id } = await client.responses.create({ model: MODEL, input: 'x', stream: true }).withResponse();
      const received: { delta: string; at: number }[] = [];
      for await (const event of stream)
        if (event.type === 'response.output_text.delta') received.push({ delta: event.delta, at: performance.now() });
      const emitted = fake.emitted(request_id!).filter((entry) => entry.event === 'response.output_text.delta');
      expect(emitted.map((entry) => (entry.data as { delta: string }).delta)).toEqual(['one', ' two', ' three']);
      expect(emitted[1].at - emitted[0].at).toBeGreaterThanOrEqual(35);
      expect(emitted[2].at - emitted[1].at).toBeGreaterThanOrEqual(75);
      expect(emitted[2].hrtime - emitted[1].hrtime).toBeGreaterThanOrEqual(75_000_000n);
      const completed = fake.emitted(request_id!).at(-1)!;
      expect(completed.event).toBe('response.completed');
      expect(completed.at - emitted[2].at).toBeGreaterThanOrEqual(55);
      for (let i = 0; i < emitted.length; i++) {
        const latency = received[i].at - emitted[i].at;
        expect(latency).toBeGreaterThanOrEqual(0);
        expect(latency).toBeLessThan(250);
      }
    });

    it('delays the headers so the SDK timeout fires (it covers only the wait for headers)', async () => {
      fake.script('responses', { headersDelayMs: Infinity, steps: [{ text: 'late' }] });
      const started = performance.now();
      // APIConnectionTimeoutError under plain Node; under Jest the AbortError comes from another realm, the SDK's
      // castToError loses its name and it reports a plain APIConnectionError('Connection error.').
      await expect(client.responses.create({ model: MODEL, input: 'x', stream: true }, { timeout: 100 })).rejects.toBeInstanceOf(
        APIConnectionError,
      );
      expect(performance.now() - started).toBeGreaterThanOrEqual(95);
      expect(fake.requests()[0].status).toBe(0);
    });

    it('a destroyed socket mid-stream surfaces as a connection error, not an API error', async () => {
      fake.script('responses', [{ text: 'cut' }, { abort: true }]);
      const stream = await client.responses.create({ model: MODEL, input: 'x', stream: true });
      const error = await collect(stream).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      // undici's TypeError('terminated') with cause UND_ERR_SOCKET, passed through by the SDK (from another realm under Jest).
      expect(error).not.toBeInstanceOf(APIError);
      expect(error).toMatchObject({ name: 'TypeError', message: 'terminated', cause: { code: 'UND_ERR_SOCKET' } });
    });

    it('echoes the last user message when nothing is scripted', async () => {
      const stream = client.responses.stream({
        model: MODEL,
        input: [
          { role: 'user', content: 'first' },
          { role: 'assistant', content: 'ok' },
          { role: 'user', content: [{ type: 'input_text', text: 'echo me please' }] },
        ],
      });
      expect((await stream.finalResponse()).output_text).toBe('echo me please');
    });
  });

  describe('POST /v1/responses, not streamed', () => {
    it('answers a Response object; the SDK computes output_text and exposes _request_id', async () => {
      fake.script('responses', '{"title":"Trip to Rome"}');
      const response = await client.responses.create({
        model: MODEL,
        input: 'Title for: planning a trip to Rome',
        instructions: 'Give a JSON title',
      });
      expect(response.output_text).toBe('{"title":"Trip to Rome"}');
      expect(response._request_id).toBe(fake.requests()[0].requestId);
      expect(response).toMatchObject({ object: 'response', status: 'completed', instructions: 'Give a JSON title', model: MODEL });
      expect(fake.emitted()).toEqual([]);
      expect(fake.requests()[0]).toMatchObject({
        endpoint: 'responses',
        stream: false,
        status: 200,
        body: { model: MODEL, instructions: 'Give a JSON title' },
      });
    });

    it('serves structured outputs parsed by responses.parse with a zod schema', async () => {
      fake.script('responses', '{"title":"Trip to Rome","emoji":"🏛️"}');
      const schema = z.object({ title: z.string(), emoji: z.string() });
      const response = await client.responses.parse({
        model: MODEL,
        input: 'Title?',
        text: { format: zodTextFormat(schema, 'conversation_title') },
      });
      expect(response.output_parsed).toEqual({ title: 'Trip to Rome', emoji: '🏛️' });
      expect(fake.requests()[0].body.text).toMatchObject({ format: { type: 'json_schema', name: 'conversation_title', strict: true } });
    });

    it('answers HTTP 500 when the scripted reply fails', async () => {
      fake.script('responses', [{ fail: { message: 'Boom' } }]);
      await expect(client.responses.create({ model: MODEL, input: 'x' })).rejects.toMatchObject({
        status: 500,
        message: '500 Boom',
        type: 'server_error',
      });
    });
  });

  describe('POST /v1/chat/completions', () => {
    it('streams chunks with reasoning_content, content, usage in the last chunk and [DONE]', async () => {
      fake.script('chat.completions', [{ reasoning: 'Short answer.' }, { text: 'Hello you' }]);
      const { data: stream, request_id } = await client.chat.completions
        .create({ model: 'qwen3', messages: [{ role: 'user', content: 'Hi' }], stream: true, stream_options: { include_usage: true } })
        .withResponse();
      const chunks = await collect(stream);
      expect(chunks.map((chunk) => chunk.choices[0]?.delta)).toEqual([
        { role: 'assistant', content: '', refusal: null },
        { content: null, reasoning_content: 'Short' },
        { content: null, reasoning_content: ' answer.' },
        { content: 'Hello' },
        { content: ' you' },
        {},
        undefined,
      ]);
      expect(chunks.map((chunk) => chunk.choices[0]?.finish_reason)).toEqual([null, null, null, null, null, 'stop', undefined]);
      expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
      expect(chunks[0]).toMatchObject({ object: 'chat.completion.chunk', model: 'qwen3', usage: null });
      expect(chunks[6]).toMatchObject({
        choices: [],
        usage: { prompt_tokens: expect.any(Number), completion_tokens: 4, completion_tokens_details: { reasoning_tokens: 2 } },
      });
      const written = fake.emitted(request_id!);
      expect(written.at(-1)).toMatchObject({ event: '[DONE]', data: '[DONE]' });
      expect(written).toHaveLength(8);
    });

    it("leaves usage out unless stream_options.include_usage, and can use vLLM's `reasoning` field", async () => {
      fake.script('chat.completions', { reasoningField: 'reasoning', steps: [{ reasoning: 'hmm' }, { text: 'ok' }] });
      const chunks = await collect(
        await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true }),
      );
      expect(chunks.every((chunk) => !('usage' in chunk))).toBe(true);
      expect(chunks[1].choices[0].delta).toEqual({ content: null, reasoning: 'hmm' });
      expect(chunks).toHaveLength(4);
    });

    it('sends an error object mid-stream, which the SDK throws as an APIError', async () => {
      fake.script('chat.completions', [{ text: 'Partial' }, { fail: { message: 'Overloaded mid-way', code: 'server_overloaded' } }]);
      const stream = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true });
      await expect(collect(stream)).rejects.toMatchObject({
        constructor: APIError,
        message: 'Overloaded mid-way',
        code: 'server_overloaded',
        type: 'server_error',
      });
    });

    it('answers HTTP errors with OpenAI error JSON: 429 and 500', async () => {
      fake.script(
        'chat.completions',
        { status: 429, headers: { 'retry-after': '1' } },
        { status: 500, error: { message: 'Upstream broke' } },
      );
      const messages = [{ role: 'user' as const, content: 'x' }];
      const limited = await client.chat.completions.create({ model: 'm', messages, stream: true }).catch((caught: unknown) => caught);
      expect(limited).toBeInstanceOf(RateLimitError);
      expect(limited).toMatchObject({
        status: 429,
        code: 'rate_limit_exceeded',
        type: 'requests',
        requestID: fake.requests()[0].requestId,
      });
      expect((limited as RateLimitError).headers.get('retry-after')).toBe('1');
      await expect(client.chat.completions.create({ model: 'm', messages })).rejects.toMatchObject({
        constructor: InternalServerError,
        status: 500,
        message: '500 Upstream broke',
      });
    });

    it('destroys the socket mid-stream on abort', async () => {
      fake.script('chat.completions', [{ text: 'Hello' }, { abort: true }]);
      const stream = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true });
      await expect(collect(stream)).rejects.toThrow('terminated');
    });

    it('refuses a connection attempt cut before any answer (non-streaming abort)', async () => {
      fake.script('chat.completions', [{ abort: true }]);
      await expect(client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] })).rejects.toBeInstanceOf(
        APIConnectionError,
      );
    });

    it('answers a non-streamed completion (for titles), echoing the user by default', async () => {
      fake.script('chat.completions', { steps: [{ reasoning: 'A title' }, { text: 'Trip to Rome' }] });
      const completion = await client.chat.completions.create({
        model: 'm',
        messages: [
          { role: 'system', content: 'Title it' },
          { role: 'user', content: 'Rome trip' },
        ],
      });
      expect(completion.choices[0]).toEqual({
        index: 0,
        message: { role: 'assistant', content: 'Trip to Rome', refusal: null, annotations: [], reasoning_content: 'A title' },
        logprobs: null,
        finish_reason: 'stop',
      });
      expect(completion._request_id).toMatch(/^req_/);
      expect(completion.usage).toMatchObject({ completion_tokens: 5 });
      const echoed = await client.chat.completions.create({
        model: 'm',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'parrot' }] }],
      });
      expect(echoed.choices[0].message.content).toBe('parrot');
    });
  });

  describe('POST /v1/audio/speech', () => {
    it('answers a WAV (PCM s16le, mono, 24 kHz) and records the request', async () => {
      const response = await client.audio.speech.create({
        model: 'gpt-4o-mini-tts',
        voice: 'alloy',
        input: 'Bonjour',
        response_format: 'wav',
      });
      expect(response.headers.get('content-type')).toBe('audio/wav');
      expect(response.headers.get('x-request-id')).toMatch(/^req_/);
      const wav = Buffer.from(await response.arrayBuffer());
      expect(wav.toString('latin1', 0, 4)).toBe('RIFF');
      expect(wav.toString('latin1', 8, 12)).toBe('WAVE');
      expect(wav.readUInt16LE(22)).toBe(1);
      expect(wav.readUInt32LE(24)).toBe(24_000);
      expect(wav.readUInt16LE(34)).toBe(16);
      expect(wav.readUInt32LE(40)).toBe(wav.length - 44);
      expect(wav.length).toBe(44 + 2400);
      expect(fake.requests('audio.speech')[0]).toMatchObject({
        body: { model: 'gpt-4o-mini-tts', voice: 'alloy', input: 'Bonjour', response_format: 'wav' },
        status: 200,
      });
      expect(fake.requests('audio.speech')[0].headers.accept).toBe('application/octet-stream');
    });

    it('answers raw PCM and MP3 with their content types, in timed pieces', async () => {
      fake.script('audio.speech', { chunks: 4, intervalMs: 20, durationMs: 100 });
      const pcm = await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'x', response_format: 'pcm' });
      expect(pcm.headers.get('content-type')).toBe('audio/pcm');
      expect((await pcm.arrayBuffer()).byteLength).toBe(4800);
      const pieces = fake.emitted().filter((entry) => entry.event === 'audio');
      expect(pieces.map((entry) => entry.data)).toEqual([{ bytes: 1200 }, { bytes: 1200 }, { bytes: 1200 }, { bytes: 1200 }]);
      expect(pieces[3].at - pieces[0].at).toBeGreaterThanOrEqual(55);

      const mp3 = await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'x' });
      expect(mp3.headers.get('content-type')).toBe('audio/mpeg');
      expect([...Buffer.from(await mp3.arrayBuffer()).subarray(0, 4)]).toEqual([0xff, 0xf3, 0x44, 0xc0]);
    });

    it('streams speech.audio.delta events with stream_format sse', async () => {
      fake.script('audio.speech', { chunks: 3 });
      const response = await client.audio.speech.create({
        model: 'gpt-4o-mini-tts',
        voice: 'alloy',
        input: 'x',
        response_format: 'pcm',
        stream_format: 'sse',
      });
      expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      const text = await response.text();
      const events = text
        .split('\n\n')
        .filter(Boolean)
        .map((block) => JSON.parse(block.replace(/^data: /, '')) as { type: string; audio?: string });
      expect(events.map((event) => event.type)).toEqual([
        'speech.audio.delta',
        'speech.audio.delta',
        'speech.audio.delta',
        'speech.audio.done',
      ]);
      expect(Buffer.concat(events.slice(0, 3).map((event) => Buffer.from(event.audio!, 'base64'))).length).toBe(2400);
    });

    it('refuses a missing voice like the API', async () => {
      await expect(client.audio.speech.create({ model: 'tts-1', input: 'x' } as never)).rejects.toMatchObject({
        status: 400,
        param: 'voice',
        code: 'missing_required_parameter',
      });
    });
  });

  describe('authentication and requests', () => {
    it('refuses a wrong key with 401 invalid_api_key, and records what the SDK sent', async () => {
      const intruder = new OpenAI({ apiKey: 'sk-wrong-key-123456', baseURL: fake.baseURL, maxRetries: 0 });
      const error = await intruder.responses.create({ model: MODEL, input: 'x' }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AuthenticationError);
      expect(error).toMatchObject({ status: 401, code: 'invalid_api_key', type: 'invalid_request_error' });
      expect((error as Error).message).toMatch(/^401 Incorrect API key provided: sk-\*+3456\./);
      const [request] = fake.requests();
      expect(request).toMatchObject({ endpoint: 'responses', status: 401, path: '/v1/responses' });
      expect(request.headers.authorization).toBe('Bearer sk-wrong-key-123456');
      expect(request.headers['x-stainless-lang']).toBe('js');
      expect(request.headers['x-stainless-retry-count']).toBe('0');
      expect(request.headers['x-stainless-package-version']).toMatch(/^6\./);
    });

    it("answers 404 with OpenAI's invalid URL error", async () => {
      await expect(client.models.list()).rejects.toMatchObject({ status: 404, message: '404 Invalid URL (GET /v1/models)' });
    });

    it('keeps scripted replies per endpoint, in order', async () => {
      fake.script('responses', 'first', 'second').script('chat.completions', 'chat');
      expect(fake.pending('responses')).toBe(2);
      const chat = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
      const first = await client.responses.create({ model: MODEL, input: 'x' });
      const second = await client.responses.create({ model: MODEL, input: 'x' });
      expect([chat.choices[0].message.content, first.output_text, second.output_text]).toEqual(['chat', 'first', 'second']);
      expect(fake.pending('responses')).toBe(0);
    });
  });
});
