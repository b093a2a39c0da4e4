import { FakeOpenAI, parseWav, rms, samplesOf, type TransportKind, TRANSPORTS } from '@app/testing';
import { randomUUID } from 'node:crypto';
import { ApiClient, binary } from '../support/api-client';
import { startTestStack, type TestStack } from '../support/test-stack';

const KEY = 'sk-voice-test-secret-0123456789';
const SENTENCE = 'Lisbon is lovely in April, and the trams are a fine way to see the old town.';
/** More than 4,096 characters of plain sentences (a long reply read aloud). */
const LONG_TEXT = Array.from(
  { length: 60 },
  (_, i) => `Paragraph ${i + 1} of the answer walks through one more step of the plan, with a detail or two worth hearing.`,
).join(' ');

async function guest(stack: TestStack): Promise<ApiClient> {
  const api = new ApiClient(stack.stack.url);
  await api.guest();
  return api;
}

/** A conversation of the caller with one exchange; its id and its reply's id. */
async function conversation(api: ApiClient): Promise<{ chatId: string; messageId: string }> {
  const chatId = (await api.post('/api/v1/chats/', {}).expect(201)).body.chat_id as string;
  await api.post(`/api/v1/chats/${chatId}/messages`, { content: 'Tell me about Lisbon.' }).expect(200);
  const messages = (await api.get(`/api/v1/chats/${chatId}`).expect(200)).body.messages as { message_id: string; sender: string }[];
  return { chatId, messageId: messages[messages.length - 1].message_id };
}

const speak = (api: ApiClient, body: object) => binary(api.post('/api/v1/text-to-speech/file', body));

describe.each(TRANSPORTS)('voice over the %s transport', (transport: TransportKind) => {
  describe('offline engine (Flite), speech-to-text through the fake', () => {
    const fake = new FakeOpenAI({ apiKey: KEY });
    let stack: TestStack;

    beforeAll(async () => {
      await fake.start();
      stack = await startTestStack('tts-offline', transport, {
        TTS_ENGINE: 'offline',
        TTS_REQUESTS_PER_MINUTE: '8',
        STT_ENGINE: 'openai-compatible',
        STT_BASE_URL: fake.baseURL,
        STT_API_KEY: KEY,
        STT_MAX_BYTES: String(512 * 1024),
      });
    }, 120_000);
    afterAll(async () => {
      await stack?.close();
      await fake.stop();
    });

    it('lists the saved voices spoken by Flite', async () => {
      const api = await guest(stack);
      const voices = (await api.get('/api/v1/text-to-speech/voices').expect(200)).body;
      expect(Object.keys(voices)).toEqual(expect.arrayContaining(['alloy', 'onyx', 'shimmer', 'verse']));
      expect(voices.alloy).toEqual({
        label: expect.stringContaining('Alloy'),
        language: 'en-US',
        engine: 'offline',
        preview_text: expect.any(String),
      });
    });

    it("really speaks the caller's message: PCM 24 kHz, not silent, about as long as the text; WAV on request; the request id header", async () => {
      const api = await guest(stack);
      const { chatId, messageId } = await conversation(api);
      const res = await speak(api, { text: SENTENCE, chat_id: chatId, message_id: messageId }).expect(200);
      expect(res.headers['content-type']).toBe('audio/pcm;rate=24000;channels=1');
      expect(res.headers['x-tts-request-id']).toMatch(/^offline-/);
      const samples = samplesOf(res.body as Buffer);
      const seconds = samples.length / 24_000;
      expect(seconds).toBeGreaterThan(3);
      expect(seconds).toBeLessThan(10);
      expect(rms(samples)).toBeGreaterThan(500);

      const wav = await speak(api, { text: 'Short preview.', format: 'wav', voice: 'nova' }).expect(200);
      expect(wav.headers['content-type']).toBe('audio/wav');
      const decoded = parseWav(wav.body as Buffer);
      expect(decoded).toMatchObject({ sampleRate: 24_000, channels: 1, bitsPerSample: 16 });
      expect(rms(decoded.samples)).toBeGreaterThan(300);
      await speak(api, { text: 'No mp3 here.', format: 'mp3' }).expect(422);
    });

    it('serves a replay of a long text (4,096 characters) from the cache: the same clip, the same request id, no new synthesis', async () => {
      const api = await guest(stack);
      const { chatId } = await conversation(api);
      const text = LONG_TEXT.slice(0, 4096);
      const first = await speak(api, { text, chat_id: chatId }).expect(200);
      const spoken = first.body as Buffer;
      expect(spoken.length / 2 / 24_000).toBeGreaterThan(120);
      const again = await speak(api, { text, chat_id: chatId }).expect(200);
      expect(again.headers['x-tts-request-id']).toBe(first.headers['x-tts-request-id']);
      expect(again.headers['content-length']).toBe(String(spoken.length));
      expect((again.body as Buffer).equals(spoken)).toBe(true);
    }, 120_000);

    it("is a 404 for someone else's conversation or message, and for a message of another conversation", async () => {
      const owner = await guest(stack);
      const stranger = await guest(stack);
      const theirs = await conversation(owner);
      const mine = await conversation(stranger);
      const refused = await speak(stranger, { text: 'Hello', chat_id: theirs.chatId }).expect(404);
      expect(JSON.parse(String(refused.body)).detail).toBe('Conversation not found');
      await speak(stranger, { text: 'Hello', chat_id: mine.chatId, message_id: theirs.messageId }).expect(404);
      await speak(stranger, { text: 'Hello', chat_id: randomUUID() }).expect(404);
      await speak(stranger, { text: 'Hello', chat_id: mine.chatId, message_id: mine.messageId }).expect(200);
    });

    it('refuses empty, NUL, too long (413) and preview-too-long (413) texts', async () => {
      const api = await guest(stack);
      const { chatId } = await conversation(api);
      await speak(api, { text: '   ' }).expect(422);
      await speak(api, { text: 'a\u0000b' }).expect(422);
      await speak(api, { text: 'x'.repeat(4097), chat_id: chatId }).expect(413);
      await speak(api, { text: 'x'.repeat(70_000), chat_id: chatId }).expect(413);
      await speak(api, { text: 'x'.repeat(301) }).expect(413);
      await speak(api, { text: 'Hi', message_id: randomUUID() }).expect(422);
      await speak(api, { text: 'Hi', speed: 9 }).expect(422);
    });

    it('limits requests per user and minute (429), the others unaffected', async () => {
      const api = await guest(stack);
      // The limit counts in fixed clock minutes: the nine requests must fall in one of them.
      const leftInMinute = 60_000 - (Date.now() % 60_000);
      if (leftInMinute < 15_000) await new Promise((resolve) => setTimeout(resolve, leftInMinute + 100));
      const statuses: number[] = [];
      for (let i = 0; i < 9; i++) statuses.push((await speak(api, { text: `Number ${i}.` })).status);
      expect(statuses.slice(0, 8)).toEqual(Array(8).fill(200));
      expect(statuses[8]).toBe(429);
      await speak(await guest(stack), { text: 'Another user.' }).expect(200);
    });

    it('transcribes a recording through the provider (the upload in chunks), with its limits', async () => {
      const api = await guest(stack);
      expect((await api.get('/api/v1/speech-to-text').expect(200)).body).toEqual({
        available: true,
        engine: 'openai-compatible',
        max_seconds: 120,
        max_bytes: 512 * 1024,
        setup_command: null,
      });
      const spoken = (await speak(api, { text: 'Turn on the lights.', format: 'wav' }).expect(200)).body as Buffer;
      const recording = Buffer.concat([spoken, spoken, spoken]); // several bus chunks
      fake.script('audio.transcriptions', { text: 'Turn on the lights.' });
      const res = await api.auth(api.http.post('/api/v1/speech-to-text')).set('content-type', 'audio/wav').send(recording).expect(200);
      expect(res.body).toEqual({ text: 'Turn on the lights.' });
      const [request] = fake.requests('audio.transcriptions').slice(-1);
      expect(request.upload).toMatchObject({ model: 'gpt-4o-mini-transcribe', filename: 'speech.wav', contentType: 'audio/wav' });
      expect(Buffer.compare(request.upload!.bytes, recording)).toBe(0);

      await api
        .auth(api.http.post('/api/v1/speech-to-text'))
        .set('content-type', 'audio/webm;codecs=opus')
        .send(Buffer.alloc(600 * 1024, 1))
        .expect(413);
      await api.auth(api.http.post('/api/v1/speech-to-text')).set('content-type', 'text/plain').send('hello').expect(415);
      await api.auth(api.http.post('/api/v1/speech-to-text')).set('content-type', 'audio/ogg').send(Buffer.alloc(0)).expect(422);
      fake.script('audio.transcriptions', { status: 500, error: { message: `boom ${KEY}` } });
      const failed = await api.auth(api.http.post('/api/v1/speech-to-text')).set('content-type', 'audio/wav').send(spoken).expect(502);
      expect(JSON.stringify(failed.body)).not.toContain(KEY);
      expect(JSON.stringify(failed.body)).not.toContain('boom');
    });
  });

  describe('OpenAI-compatible engine through the fake; no speech-to-text', () => {
    const fake = new FakeOpenAI({ apiKey: KEY });
    let stack: TestStack;

    beforeAll(async () => {
      await fake.start();
      stack = await startTestStack('tts-openai', transport, {
        TTS_ENGINE: 'openai-compatible',
        TTS_BASE_URL: fake.baseURL,
        TTS_API_KEY: KEY,
        TTS_DEFAULT_MODEL: 'kokoro',
        STT_ENGINE: 'none',
      });
    }, 120_000);
    afterAll(async () => {
      await stack?.close();
      await fake.stop();
    });
    beforeEach(() => fake.reset());

    it("speaks through the SDK with the user's voice settings; the provider's request id in the header", async () => {
      const api = await guest(stack);
      await api.post('/api/v1/user_config/ai-voice', { voice: 'sage', speed: 1.25 }).expect(200);
      fake.script('audio.speech', { durationMs: 1_500, chunks: 3 });
      const res = await speak(api, {
        text: 'Hello **there**, see [the map](https://maps.example.com/x).',
        normalize_text_for_reading: true,
      }).expect(200);
      const [request] = fake.requests('audio.speech');
      expect(request.body).toMatchObject({
        model: 'kokoro',
        voice: 'sage',
        speed: 1.25,
        response_format: 'pcm',
        input: 'Hello there, see the map.',
      });
      expect(res.headers['x-tts-request-id']).toBe(request.requestId);
      expect((res.body as Buffer).length).toBe(1.5 * 24_000 * 2);
    });

    it('serves a replay from the cache: one provider request for two calls; another voice is another request', async () => {
      const api = await guest(stack);
      const first = await speak(api, { text: 'Cache me once.', voice: 'echo', speed: 1 }).expect(200);
      const second = await speak(api, { text: 'Cache me once.', voice: 'echo', speed: 1 }).expect(200);
      expect(fake.requests('audio.speech')).toHaveLength(1);
      expect(Buffer.compare(first.body as Buffer, second.body as Buffer)).toBe(0);
      expect(second.headers['x-tts-request-id']).toBe(first.headers['x-tts-request-id']);
      await speak(api, { text: 'Cache me once.', voice: 'onyx', speed: 1 }).expect(200);
      expect(fake.requests('audio.speech')).toHaveLength(2);
      // Another user never gets this user's audio.
      await speak(await guest(stack), { text: 'Cache me once.', voice: 'echo', speed: 1 }).expect(200);
      expect(fake.requests('audio.speech')).toHaveLength(3);
      const kept = await stack.db.query('SELECT count(*)::int AS n FROM tts.audio_cache');
      expect(kept.rows[0].n).toBeGreaterThanOrEqual(3);
    });

    it("answers an engine failure with 502 and our sentence, never the provider's body or key", async () => {
      const api = await guest(stack);
      fake.script('audio.speech', { status: 500, error: { message: `Upstream exploded, key ${KEY}` } });
      const res = await speak(api, { text: 'This will fail.' }).expect(502);
      const body = JSON.parse(String(res.body));
      expect(body.detail).toBe('The voice provider failed (status 500). Please try again.');
      expect(String(res.body)).not.toContain(KEY);
      expect(String(res.body)).not.toContain('exploded');
    });

    it('exports what the cache keeps and purges it with the account', async () => {
      const api = await guest(stack);
      const userId = (await api.get('/api/v1/auth/me').expect(200)).body.user_id as string;
      await speak(api, { text: 'Keep me for the export.', voice: 'fable' }).expect(200);
      const rows = await stack.db.query('SELECT engine, voice, format, text_chars FROM tts.audio_cache WHERE user_id = $1', [userId]);
      expect(rows.rows).toEqual([{ engine: 'openai-compatible', voice: 'fable', format: 'pcm', text_chars: 23 }]);
      await api.delete('/api/v1/users/me').expect((res) => expect([202, 204]).toContain(res.status));
      for (let i = 0; i < 100; i++) {
        const left = await stack.db.query(
          'SELECT count(*)::int AS n FROM tts.audio_cache_bytes b JOIN tts.audio_cache c ON c.id = b.cache_id WHERE c.user_id = $1',
          [userId],
        );
        if (left.rows[0].n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect((await stack.db.query('SELECT count(*)::int AS n FROM tts.audio_cache WHERE user_id = $1', [userId])).rows[0].n).toBe(0);
    });

    it('says speech-to-text is not configured (503)', async () => {
      const api = await guest(stack);
      expect((await api.get('/api/v1/speech-to-text').expect(200)).body).toMatchObject({ available: false, engine: null });
      const res = await api
        .auth(api.http.post('/api/v1/speech-to-text'))
        .set('content-type', 'audio/webm')
        .send(Buffer.alloc(1000, 1))
        .expect(503);
      expect(res.body).toEqual({ detail: 'Speech-to-text is not configured on this server.' });
    });
  });
});
