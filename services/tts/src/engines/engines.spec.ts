import { TTS_VOICES } from '@app/contracts/insider-config';
import { FakeOpenAI, parseWav, rms, samplesOf } from '@app/testing';
import { espeakRateOf, OfflineSpeechEngine } from './offline.engine';
import { OpenAiSpeechEngine } from './openai.engine';
import { SpeechEngineError, type SpeechAudio } from './speech-engine';

const bytesOf = async (audio: SpeechAudio) => {
  const parts: Buffer[] = [];
  for await (const part of audio.body) parts.push(part);
  return Buffer.concat(parts);
};
const SENTENCE = 'The quick brown fox jumps over the lazy dog, and then it runs away into the forest.';

describe('OfflineSpeechEngine (espeak-ng in a worker)', () => {
  const engine = new OfflineSpeechEngine();
  afterAll(() => engine.close());

  it('really speaks: PCM at 24 kHz, not silent, about as long as the sentence takes to say', async () => {
    const audio = await engine.synthesize({ text: SENTENCE, voice: 'alloy', speed: 1, model: 'espeak-ng', format: 'pcm' });
    expect(audio.contentType).toBe('audio/pcm;rate=24000;channels=1');
    expect(audio.requestId).toMatch(/^offline-[0-9a-f-]{36}$/);
    const pcm = await bytesOf(audio);
    expect(audio.size).toBe(pcm.length);
    const seconds = pcm.length / 2 / 24_000;
    expect(seconds).toBeGreaterThan(3);
    expect(seconds).toBeLessThan(9);
    expect(rms(samplesOf(pcm))).toBeGreaterThan(500);
  });

  it('makes a WAV on request, and honours the speed', async () => {
    const wav = parseWav(
      await bytesOf(await engine.synthesize({ text: SENTENCE, voice: 'onyx', speed: 1, model: 'espeak-ng', format: 'wav' })),
    );
    expect(wav).toMatchObject({ sampleRate: 24_000, channels: 1, bitsPerSample: 16 });
    const fast = await bytesOf(await engine.synthesize({ text: SENTENCE, voice: 'onyx', speed: 2, model: 'espeak-ng', format: 'pcm' }));
    expect(fast.length / 2).toBeLessThan(wav.samples.length * 0.65);
    expect(espeakRateOf(0.25)).toBe(80);
    expect(espeakRateOf(4)).toBe(450);
  });

  it('speaks every saved voice, each differently; refuses mp3 with a 422', async () => {
    const lengths = new Set<number>();
    for (const voice of TTS_VOICES) {
      const pcm = await bytesOf(await engine.synthesize({ text: 'Hello there.', voice, speed: 1, model: 'espeak-ng', format: 'pcm' }));
      expect(rms(samplesOf(pcm))).toBeGreaterThan(300);
      lengths.add(pcm.length);
    }
    expect(lengths.size).toBeGreaterThan(5);
    expect(Object.keys(engine.voices())).toEqual([...TTS_VOICES]);
    await expect(engine.synthesize({ text: 'Hi', voice: 'alloy', speed: 1, model: 'espeak-ng', format: 'mp3' })).rejects.toMatchObject({
      status: 422,
    });
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
