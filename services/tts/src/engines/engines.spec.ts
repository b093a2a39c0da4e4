import { TTS_VOICES } from '@app/contracts/insider-config';
import { FakeOpenAI, parseWav, rms, samplesOf } from '@app/testing';
import { offlineWorkersOf } from './engine.factory';
import { OfflineSpeechEngine } from './offline.engine';
import { EspeakVoice, espeakInstalled, espeakRateOf, FliteVoice, fliteStretchOf } from './offline-voices';
import { OpenAiSpeechEngine } from './openai.engine';
import { SpeechEngineError, type SpeechAudio } from './speech-engine';

const bytesOf = async (audio: SpeechAudio) => {
  const parts: Buffer[] = [];
  for await (const part of audio.body) parts.push(part);
  return Buffer.concat(parts);
};
const SENTENCE = 'The quick brown fox jumps over the lazy dog, and then it runs away into the forest.';

const ENGINE_JOB = { model: 'flite', userId: 'u1' } as const;

describe('OfflineSpeechEngine with Flite (the default offline voice)', () => {
  const engine = new OfflineSpeechEngine(new FliteVoice(2));
  afterAll(() => engine.close());

  it('really speaks: PCM at 24 kHz, not silent, about as long as the sentence takes to say', async () => {
    const audio = await engine.synthesize({ ...ENGINE_JOB, text: SENTENCE, voice: 'alloy', speed: 1, format: 'pcm' });
    expect(audio.contentType).toBe('audio/pcm;rate=24000;channels=1');
    expect(audio.requestId).toMatch(/^offline-[0-9a-f-]{36}$/);
    const pcm = await bytesOf(audio);
    expect(audio.size).toBe(pcm.length);
    const seconds = pcm.length / 2 / 24_000;
    expect(seconds).toBeGreaterThan(3);
    expect(seconds).toBeLessThan(9);
    expect(rms(samplesOf(pcm))).toBeGreaterThan(500);
    expect(engine.model).toBe('flite');
  });

  it('speaks a long text sentence by sentence, streamed: every stretch heard, in order', async () => {
    const text = Array.from({ length: 12 }, (_, i) => `This is sentence number ${i + 1}, spoken in its turn.`).join(' ');
    const audio = await engine.synthesize({ ...ENGINE_JOB, text, voice: 'ash', speed: 1, format: 'pcm' });
    expect(audio.size).toBeNull();
    const parts: Buffer[] = [];
    for await (const part of audio.body) parts.push(part);
    expect(parts.length).toBeGreaterThan(2);
    for (const part of parts) expect(rms(samplesOf(part))).toBeGreaterThan(300);
    expect(Buffer.concat(parts).length / 2 / 24_000).toBeGreaterThan(20);
  });

  it('makes a WAV on request, and honours the speed', async () => {
    const wav = parseWav(await bytesOf(await engine.synthesize({ ...ENGINE_JOB, text: SENTENCE, voice: 'onyx', speed: 1, format: 'wav' })));
    expect(wav).toMatchObject({ sampleRate: 24_000, channels: 1, bitsPerSample: 16 });
    const fast = await bytesOf(await engine.synthesize({ ...ENGINE_JOB, text: SENTENCE, voice: 'onyx', speed: 2, format: 'pcm' }));
    expect(fast.length / 2).toBeLessThan(wav.samples.length * 0.65);
    expect(fliteStretchOf('alloy', 0.5)).toBe(2);
    expect(fliteStretchOf('cedar', 2)).toBe(0.56);
  });

  it('speaks every saved voice, each differently; refuses mp3 with a 422', async () => {
    const clips = new Set<string>();
    for (const voice of TTS_VOICES) {
      const pcm = await bytesOf(
        await engine.synthesize({ ...ENGINE_JOB, text: 'Hello there, how are you?', voice, speed: 1, format: 'pcm' }),
      );
      expect(rms(samplesOf(pcm))).toBeGreaterThan(300);
      clips.add(`${pcm.length}:${rms(samplesOf(pcm)).toFixed(0)}`);
    }
    expect(clips.size).toBe(TTS_VOICES.length);
    expect(Object.keys(engine.voices())).toEqual([...TTS_VOICES]);
    await expect(engine.synthesize({ ...ENGINE_JOB, text: 'Hi', voice: 'alloy', speed: 1, format: 'mp3' })).rejects.toMatchObject({
      status: 422,
    });
  });
});

/** espeak-ng is GPL: not a dependency of the product; a development checkout has it (devDependencies) to keep the option tested. */
(espeakInstalled() ? describe : describe.skip)('OfflineSpeechEngine with espeak-ng (installed on purpose)', () => {
  const engine = new OfflineSpeechEngine(new EspeakVoice());
  afterAll(() => engine.close());

  it('speaks at 24 kHz under its own model name, and maps the speed to words per minute', async () => {
    const pcm = await bytesOf(
      await engine.synthesize({ ...ENGINE_JOB, model: 'espeak-ng', text: SENTENCE, voice: 'alloy', speed: 1, format: 'pcm' }),
    );
    expect(pcm.length / 2 / 24_000).toBeGreaterThan(3);
    expect(rms(samplesOf(pcm))).toBeGreaterThan(500);
    expect(engine.model).toBe('espeak-ng');
    expect(espeakRateOf(0.25)).toBe(80);
    expect(espeakRateOf(4)).toBe(450);
  });
});

describe('offlineWorkersOf', () => {
  it('leaves a core to the service: the cores but one, at least one, at most four, unless TTS_OFFLINE_WORKERS says', () => {
    expect(offlineWorkersOf({}, 1)).toBe(1);
    expect(offlineWorkersOf({}, 2)).toBe(1);
    expect(offlineWorkersOf({}, 4)).toBe(3);
    expect(offlineWorkersOf({}, 32)).toBe(4);
    expect(offlineWorkersOf({ TTS_OFFLINE_WORKERS: 6 }, 2)).toBe(6);
  });
});

describe('OpenAiSpeechEngine against the fake OpenAI', () => {
  const fake = new FakeOpenAI({ apiKey: 'sk-test-secret-key-123456' });
  let engine: OpenAiSpeechEngine;
  beforeAll(async () => {
    await fake.start();
    engine = new OpenAiSpeechEngine('openai', { baseURL: fake.baseURL, apiKey: 'sk-test-secret-key-123456' }, 5_000);
  });
  afterAll(() => fake.stop());
  beforeEach(() => fake.reset());

  it('asks the speech endpoint through the SDK and passes on the audio and the request id', async () => {
    fake.script('audio.speech', { durationMs: 400, chunks: 4 });
    const audio = await engine.synthesize({ text: 'Hello', voice: 'coral', speed: 1.5, model: 'gpt-4o-mini-tts', format: 'pcm' });
    const pcm = await bytesOf(audio);
    expect(pcm.length).toBe(0.4 * 24_000 * 2);
    const [request] = fake.requests('audio.speech');
    expect(audio.requestId).toBe(request.requestId);
    expect(request.body).toMatchObject({ model: 'gpt-4o-mini-tts', voice: 'coral', input: 'Hello', speed: 1.5, response_format: 'pcm' });
    const wav = await bytesOf(await engine.synthesize({ text: 'Hi', voice: 'ash', speed: 1, model: 'tts-1', format: 'wav' }));
    expect(parseWav(wav).sampleRate).toBe(24_000);
  });

  it('fails with a sentence of ours: the status, never the provider body or the key', async () => {
    fake.script('audio.speech', { status: 500, error: { message: 'Internal boom with key sk-test-secret-key-123456' } });
    const failure = await engine
      .synthesize({ text: 'Hello', voice: 'alloy', speed: 1, model: 'tts-1', format: 'pcm' })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(SpeechEngineError);
    expect((failure as SpeechEngineError).detail).toBe('The voice provider failed (status 500).');
    const wrongKey = new OpenAiSpeechEngine('openai', { baseURL: fake.baseURL, apiKey: 'sk-wrong-key-abcdefgh' }, 5_000);
    const refused = (await wrongKey
      .synthesize({ text: 'Hello', voice: 'alloy', speed: 1, model: 'tts-1', format: 'pcm' })
      .catch((e: unknown) => e)) as SpeechEngineError;
    expect(refused.detail).toBe('The voice provider failed (status 401).');
    expect(refused.detail).not.toContain('sk-');
  });
});
