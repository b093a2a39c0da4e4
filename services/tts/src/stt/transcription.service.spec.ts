import type { Caller } from '@app/contracts';
import { AUDIO_TRANSFER, STT_NOT_CONFIGURED, type SttAudioType } from '@app/contracts/tts';
import { AppLogger, DomainError, Throttler, type KeyValueStore } from '@app/platform';
import type { TtsConfig } from '../config';
import { SpeechEngineError } from '../engines/speech-engine';
import { TOO_MANY_VOICE_REQUESTS, VoiceRateLimiter } from '../speech/rate-limiter';
import type { Transcriber } from './transcriber';
import {
  RECORDING_EMPTY,
  RECORDING_NOT_FOUND,
  RECORDING_TOO_LARGE,
  sttTypeOf,
  TranscriptionService,
  UNSUPPORTED_AUDIO,
} from './transcription.service';

const caller = (user_id = 'u1'): Caller => ({ user_id, is_anon: true, session_id: null, request_id: 'r' });
const b64 = (text: string) => Buffer.from(text).toString('base64');

/** The key-value store as a plain map (no expiry), so a test sees every key the service leaves behind. */
class FakeKv implements KeyValueStore {
  readonly kind = 'memory' as const;
  readonly entries = new Map<string, string>();
  async get(key: string) {
    return this.entries.get(key) ?? null;
  }
  async set(key: string, value: string) {
    this.entries.set(key, value);
  }
  async setIfAbsent(key: string, value: string) {
    if (this.entries.has(key)) return false;
    this.entries.set(key, value);
    return true;
  }
  async increment(key: string) {
    const next = Number(this.entries.get(key) ?? 0) + 1;
    this.entries.set(key, String(next));
    return next;
  }
  async decrement(key: string) {
    if (this.entries.has(key)) this.entries.set(key, String(Math.max(0, Number(this.entries.get(key)) - 1)));
  }
  async delete(key: string) {
    this.entries.delete(key);
  }
  async ping() {}
  async close() {}
  /** The keys of recordings (the rate counters set aside). */
  recordingKeys() {
    return [...this.entries.keys()].filter((key) => key.startsWith('tts:stt:'));
  }
}

class FakeTranscriber implements Transcriber {
  readonly name = 'openai-compatible' as const;
  calls: { audio: Buffer; type: SttAudioType }[] = [];
  answer = '  What is the capital of France?  ';
  failWith: Error | null = null;
  answers = true;
  async available() {
    return this.answers;
  }
  async transcribe(audio: Buffer, type: SttAudioType) {
    this.calls.push({ audio, type });
    if (this.failWith) throw this.failWith;
    return this.answer;
  }
}

describe('TranscriptionService', () => {
  const config = {
    STT_MAX_BYTES: 64,
    STT_MAX_SECONDS: 30,
    TTS_REQUESTS_PER_MINUTE: 3,
    STT_SETUP_COMMAND: 'run the whisper server',
  } as TtsConfig;
  let kv: FakeKv;
  let transcriber: FakeTranscriber;
  let limiter: VoiceRateLimiter;
  let service: TranscriptionService;
  const logger = new AppLogger({ level: 'error' } as never);
  const make = (t: Transcriber | null) => new TranscriptionService(t, kv, limiter, config, logger);

  beforeEach(() => {
    kv = new FakeKv();
    transcriber = new FakeTranscriber();
    limiter = new VoiceRateLimiter(new Throttler(kv), config);
    service = make(transcriber);
  });

  it('says what it can take, and that nothing is available without a transcriber', async () => {
    expect(await service.info()).toEqual({
      available: true,
      engine: 'openai-compatible',
      max_seconds: 30,
      max_bytes: 64,
      setup_command: null,
    });
    expect(await make(null).info()).toEqual({ available: false, engine: null, max_seconds: 30, max_bytes: 64, setup_command: null });
  });

  it('while the local server it looks for does not answer: unavailable, with the one command that starts it; 503 on use', async () => {
    transcriber.answers = false;
    expect(await service.info()).toMatchObject({ available: false, engine: null, setup_command: 'run the whisper server' });
    await expect(service.begin(caller(), 'audio/wav')).rejects.toMatchObject({ status: 503, message: STT_NOT_CONFIGURED });
    transcriber.answers = true;
    expect(await service.info()).toMatchObject({ available: true, setup_command: null });
    await expect(service.begin(caller(), 'audio/wav')).resolves.toMatchObject({ upload_id: expect.any(String) });
  });

  it('reads the type of a Content-Type with its parameters, and refuses any other', () => {
    expect(sttTypeOf('audio/webm;codecs=opus')).toBe('audio/webm');
    expect(sttTypeOf(' Audio/OGG ; codecs=opus')).toBe('audio/ogg');
    expect(sttTypeOf('video/webm')).toBeNull();
    expect(sttTypeOf('')).toBeNull();
  });

  it('transcribes a recording sent in chunks, in order, as one file of its type, and forgets it', async () => {
    const { upload_id, chunk_bytes, max_bytes } = await service.begin(caller(), 'audio/webm;codecs=opus');
    expect(chunk_bytes).toBe(AUDIO_TRANSFER.chunkBytes);
    expect(max_bytes).toBe(64);
    expect(await service.chunk(caller(), { upload_id, seq: 0, data: b64('first ') })).toEqual({ received_bytes: 6 });
    expect(await service.chunk(caller(), { upload_id, seq: 1, data: b64('second') })).toEqual({ received_bytes: 12 });
    expect(await service.commit(caller(), upload_id)).toEqual({ text: 'What is the capital of France?' });
    expect(transcriber.calls).toHaveLength(1);
    expect(transcriber.calls[0]!.audio.toString()).toBe('first second');
    expect(transcriber.calls[0]!.type).toBe('audio/webm');
    expect(kv.recordingKeys()).toEqual([]);
    // Committed once: it is gone.
    await expect(service.commit(caller(), upload_id)).rejects.toMatchObject({ status: 404, detail: RECORDING_NOT_FOUND });
  });

  it('answers 503 without a transcriber and 415 for a type it does not take, before counting anything', async () => {
    await expect(make(null).begin(caller(), 'audio/webm')).rejects.toMatchObject({ status: 503, detail: STT_NOT_CONFIGURED });
    await expect(service.begin(caller(), 'text/plain')).rejects.toMatchObject({ status: 415, detail: UNSUPPORTED_AUDIO });
    expect(kv.entries.size).toBe(0);
  });

  it("keeps one user's recording from another: chunk and commit 404, abort does nothing", async () => {
    const { upload_id } = await service.begin(caller('u1'), 'audio/wav');
    await expect(service.chunk(caller('u2'), { upload_id, seq: 0, data: b64('x') })).rejects.toMatchObject({ status: 404 });
    await expect(service.commit(caller('u2'), upload_id)).rejects.toMatchObject({ status: 404 });
    expect(await service.abort(caller('u2'), upload_id)).toEqual({ aborted: false });
    expect(await service.abort(caller('u1'), upload_id)).toEqual({ aborted: true });
    expect(kv.recordingKeys()).toEqual([]);
    expect(await service.abort(caller('u1'), 'never-begun')).toEqual({ aborted: false });
    expect(transcriber.calls).toHaveLength(0);
  });

  it('takes chunks only in order (409), and drops the whole recording past the size limit (413)', async () => {
    const { upload_id } = await service.begin(caller(), 'audio/ogg');
    await expect(service.chunk(caller(), { upload_id, seq: 1, data: b64('x') })).rejects.toMatchObject({ status: 409 });
    await service.chunk(caller(), { upload_id, seq: 0, data: b64('a'.repeat(40)) });
    await expect(service.chunk(caller(), { upload_id, seq: 1, data: b64('b'.repeat(25)) })).rejects.toMatchObject({
      status: 413,
      detail: RECORDING_TOO_LARGE,
    });
    expect(kv.recordingKeys()).toEqual([]);
    await expect(service.commit(caller(), upload_id)).rejects.toMatchObject({ status: 404 });
    expect(transcriber.calls).toHaveLength(0);
  });

  it('refuses an empty recording (422) and one whose chunk expired (404), sending nothing to the provider', async () => {
    const empty = await service.begin(caller(), 'audio/mpeg');
    await expect(service.commit(caller(), empty.upload_id)).rejects.toMatchObject({ status: 422, detail: RECORDING_EMPTY });
    const partial = await service.begin(caller(), 'audio/mpeg');
    await service.chunk(caller(), { upload_id: partial.upload_id, seq: 0, data: b64('one') });
    await service.chunk(caller(), { upload_id: partial.upload_id, seq: 1, data: b64('two') });
    kv.entries.delete(`tts:stt:${partial.upload_id}:0`);
    await expect(service.commit(caller(), partial.upload_id)).rejects.toMatchObject({ status: 404, detail: RECORDING_NOT_FOUND });
    expect(kv.recordingKeys()).toEqual([]);
    expect(transcriber.calls).toHaveLength(0);
  });

  it("answers the provider's failure with 502 and our sentence, audio it cannot read with 422; anything else is not dressed up", async () => {
    const send = async () => {
      const { upload_id } = await service.begin(caller(), 'audio/webm');
      await service.chunk(caller(), { upload_id, seq: 0, data: b64('sound') });
      return service.commit(caller(), upload_id).catch((error: unknown) => error);
    };
    transcriber.failWith = new SpeechEngineError('The speech-to-text provider failed (status 500).', {
      cause: new Error('upstream said sk-secret-key'),
    });
    const failed = await send();
    expect(failed).toBeInstanceOf(DomainError);
    expect(failed).toMatchObject({ status: 502, detail: 'The speech-to-text provider failed (status 500). Please try again.' });
    expect(JSON.stringify(failed)).not.toContain('sk-secret');
    transcriber.failWith = new SpeechEngineError('The provider could not decode the audio.', { undecodable: true });
    expect(await send()).toMatchObject({ status: 422, detail: 'The recording could not be understood as audio.' });
    const bug = new TypeError('not ours to explain');
    transcriber.failWith = bug;
    expect(await send()).toBe(bug);
    // Whatever happened, no recording stays behind.
    expect(kv.recordingKeys()).toEqual([]);
  });

  it('counts recordings per user and minute apart from speech (429 past the limit)', async () => {
    limiter.now = () => 120_000;
    for (let i = 0; i < 3; i++) await service.begin(caller('u1'), 'audio/webm');
    await expect(service.begin(caller('u1'), 'audio/webm')).rejects.toMatchObject({ status: 429, detail: TOO_MANY_VOICE_REQUESTS });
    await expect(service.begin(caller('u2'), 'audio/webm')).resolves.toMatchObject({ max_bytes: 64 });
    await expect(limiter.take('speech', 'u1')).resolves.toBeUndefined();
    limiter.now = () => 180_000;
    await expect(service.begin(caller('u1'), 'audio/webm')).resolves.toMatchObject({ max_bytes: 64 });
  });
});
