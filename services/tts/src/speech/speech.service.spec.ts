import type { Caller } from '@app/contracts';
import { CHAT_RPC } from '@app/contracts/chat';
import type { SpeechChunk, SpeechRequest, Voices } from '@app/contracts/tts';
import { AppLogger, DomainError, MemoryStore, Throttler, type PublicOf } from '@app/platform';
import { lastValueFrom, toArray } from 'rxjs';
import type { CachedAudio, NewCachedAudio, AudioCacheRepository } from '../cache/audio-cache.repository';
import type { TtsConfig } from '../config';
import { SpeechEngineError, type SpeechEngine, type SpeechJob } from '../engines/speech-engine';
import { VoiceRateLimiter } from './rate-limiter';
import { SpeechService, type VoiceRpc } from './speech.service';

const caller = (user_id = 'u1'): Caller => ({ user_id, is_anon: true, session_id: null, request_id: 'r' });
const request = (fields: Partial<SpeechRequest> = {}): SpeechRequest => ({
  text: 'Hello there.',
  normalize_text_for_reading: false,
  format: 'pcm',
  ...fields,
});

class FakeEngine implements SpeechEngine {
  readonly name = 'openai' as const;
  readonly takesModelSetting = true;
  jobs: SpeechJob[] = [];
  failWith: Error | null = null;
  voices(): Voices {
    return {};
  }
  async synthesize(job: SpeechJob) {
    this.jobs.push(job);
    if (this.failWith) throw this.failWith;
    const audio = Buffer.alloc(300 * 1024, 7);
    return {
      contentType: 'audio/pcm;rate=24000;channels=1',
      requestId: `req_${this.jobs.length}`,
      size: null,
      body: (async function* () {
        yield audio;
      })(),
    };
  }
}

class FakeCache implements PublicOf<AudioCacheRepository> {
  clips = new Map<string, NewCachedAudio>();
  async find(userId: string, key: string): Promise<CachedAudio | null> {
    return this.clips.get(`${userId}:${key}`) ?? null;
  }
  async put(clip: NewCachedAudio) {
    this.clips.set(`${clip.userId}:${clip.key}`, clip);
  }
}

class FakeRpc implements VoiceRpc {
  calls: { subject: string; data: unknown }[] = [];
  notFound = new Set<string>();
  call = (async (contract: { subject: string }, data: { chat_id?: string }) => {
    this.calls.push({ subject: contract.subject, data });
    if (contract.subject === CHAT_RPC.owned.subject && this.notFound.has(data.chat_id ?? ''))
      throw DomainError.notFound('Conversation not found');
    if (contract.subject === CHAT_RPC.owned.subject) return { chat_id: data.chat_id, message_id: null };
    return { min_chars: 100, openai_model: 'tts-1-hd', voice: 'nova', speed: 1.5 };
  }) as unknown as VoiceRpc['call'];
}

describe('SpeechService', () => {
  const config = {
    TTS_CACHE_MAX_BYTES: 64 * 1024 * 1024,
    TTS_CACHE_TTL_SECONDS: 3600,
    TTS_DEFAULT_MODEL: 'gpt-4o-mini-tts',
    TTS_REQUESTS_PER_MINUTE: 3,
  } as TtsConfig;
  let engine: FakeEngine;
  let cache: FakeCache;
  let rpc: FakeRpc;
  let service: SpeechService;
  const frames = (req: SpeechRequest, who = caller()) => lastValueFrom(service.synthesize(who, req).pipe(toArray()));
  const bytesOf = (all: SpeechChunk[]) => Buffer.concat(all.flatMap((f) => (f.kind === 'data' ? [Buffer.from(f.data, 'base64')] : [])));

  beforeEach(() => {
    engine = new FakeEngine();
    cache = new FakeCache();
    rpc = new FakeRpc();
    const limiter = new VoiceRateLimiter(new Throttler(new MemoryStore()), config);
    service = new SpeechService(engine, cache, rpc, limiter, config, new AppLogger({ level: 'error' } as never));
  });

  it("speaks with the user's settings, in chunks under the bus limit, then serves the replay from the cache", async () => {
    const first = await frames(request({ chat_id: '11111111-1111-4111-8111-111111111111' }));
    expect(first[0]).toMatchObject({ kind: 'head', request_id: 'req_1', cached: false });
    expect(first.filter((f) => f.kind === 'data').length).toBe(2);
    expect(engine.jobs[0]).toMatchObject({ voice: 'nova', speed: 1.5, model: 'tts-1-hd', text: 'Hello there.' });
    const again = await frames(request({ chat_id: '11111111-1111-4111-8111-111111111111' }));
    expect(again[0]).toMatchObject({ kind: 'head', request_id: 'req_1', cached: true });
    expect(engine.jobs).toHaveLength(1);
    expect(bytesOf(again).equals(bytesOf(first))).toBe(true);
    // Another user, or another voice, is not this clip.
    await frames(request({ chat_id: '11111111-1111-4111-8111-111111111111' }), caller('u2'));
    await frames(request({ chat_id: '11111111-1111-4111-8111-111111111111', voice: 'onyx' }));
    expect(engine.jobs).toHaveLength(3);
  });

  it("refuses in order: too long (413), not the caller's (404), over the limit (429)", async () => {
    await expect(frames(request({ text: 'x'.repeat(301) }))).rejects.toMatchObject({ status: 413 });
    await expect(frames(request({ text: 'x'.repeat(4097), chat_id: 'c' }))).rejects.toMatchObject({ status: 413 });
    rpc.notFound.add('theirs');
    await expect(frames(request({ chat_id: 'theirs' }))).rejects.toMatchObject({ status: 404 });
    for (let i = 0; i < 3; i++) await frames(request({ text: `n ${i}` }));
    await expect(frames(request({ text: 'one more' }))).rejects.toMatchObject({ status: 429 });
    expect(engine.jobs).toHaveLength(3);
  });

  it('reads normalised text when asked, and says when nothing is left to read', async () => {
    await frames(request({ text: '## Plan\n- pack **light**', normalize_text_for_reading: true }));
    expect(engine.jobs[0].text).toBe('Plan.\n\npack light.');
    await expect(frames(request({ text: '🎉🎉', normalize_text_for_reading: true }))).rejects.toMatchObject({ status: 422 });
  });

  it('answers an engine failure with 502 and our sentence, and caches nothing', async () => {
    engine.failWith = new SpeechEngineError('The voice provider failed (status 500).', { cause: new Error('secret body sk-123') });
    const failure = await frames(request()).catch((e: unknown) => e);
    expect(failure).toMatchObject({ status: 502, detail: 'The voice provider failed (status 500). Please try again.' });
    expect(cache.clips.size).toBe(0);
  });
});
