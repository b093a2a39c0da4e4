import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import { CHAT_RPC } from '@app/contracts/chat';
import { DEFAULT_AI_VOICE_CONFIG, INSIDER_CONFIG_RPC, type AiVoiceConfig } from '@app/contracts/insider-config';
import { AUDIO_TRANSFER, SPEECH_LIMITS, type SpeechChunk, type SpeechRequest, type Voices } from '@app/contracts/tts';
import { AppLogger, DomainError, observeGenerator, rechunk, RpcClient, SERVICE_CONFIG, userIdOf, type PublicOf } from '@app/platform';
import { createHash } from 'node:crypto';
import type { Observable } from 'rxjs';
import { AudioCacheRepository, type CachedAudio } from '../cache/audio-cache.repository';
import type { TtsConfig } from '../config';
import { engineFailureAnswer, SPEECH_ENGINE, type SpeechEngine, type SpeechJob } from '../engines/speech-engine';
import { normalizeTextForReading } from '../text/normalize';
import { VoiceRateLimiter } from './rate-limiter';

export const TEXT_TOO_LONG = `text: at most ${SPEECH_LIMITS.textMaxChars} characters can be read at once`;
export const PREVIEW_TOO_LONG = `text: a voice preview (no chat_id) is at most ${SPEECH_LIMITS.previewMaxChars} characters`;
export const NOTHING_TO_READ = 'text: there is nothing to read once the formatting is taken out';

/** The calls the speech logic makes to other services (a typed fake in unit tests). */
export type VoiceRpc = Pick<RpcClient, 'call'>;

/**
 * Speaking a text for a user: the limits, the ownership of the conversation and message, the
 * per-minute limit, the user's voice settings as defaults, then the cache or the engine. Audio
 * leaves as frames: a head (type, provider request id), then chunks of AUDIO_TRANSFER.chunkBytes.
 */
@Injectable()
export class SpeechService implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(SPEECH_ENGINE) private readonly engine: SpeechEngine,
    @Inject(AudioCacheRepository) private readonly cache: PublicOf<AudioCacheRepository>,
    @Inject(RpcClient) private readonly rpc: VoiceRpc,
    private readonly limiter: VoiceRateLimiter,
    @Inject(SERVICE_CONFIG) private readonly config: TtsConfig,
    private readonly logger: AppLogger,
  ) {}

  /** The offline engine's worker starts with the service, so the first request does not wait for it. */
  onModuleInit(): void {
    void this.engine
      .warmUp?.()
      .catch((error: unknown) => this.logger.warn({ msg: 'Speech engine warm-up failed', error: String(error) }, 'Speech'));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.engine.close?.();
  }

  voices(): Voices {
    return this.engine.voices();
  }

  synthesize(caller: Caller, request: SpeechRequest): Observable<SpeechChunk> {
    return observeGenerator((signal) => this.frames(caller, request, signal));
  }

  private async *frames(caller: Caller, request: SpeechRequest, signal: AbortSignal): AsyncGenerator<SpeechChunk> {
    const userId = userIdOf(caller);
    const job = await this.prepare(caller, userId, request);
    const key = cacheKeyOf(this.engine.name, job);
    const cached = this.config.TTS_CACHE_MAX_BYTES > 0 ? await this.cache.find(userId, key, this.config.TTS_CACHE_TTL_SECONDS) : null;
    if (cached) {
      yield* this.replay(cached);
      return;
    }
    let audio;
    try {
      audio = await this.engine.synthesize({ ...job, userId, signal });
    } catch (error) {
      throw this.engineFailure(error);
    }
    yield {
      kind: 'head',
      content_type: audio.contentType,
      request_id: audio.requestId,
      engine: this.engine.name,
      cached: false,
      size: audio.size,
    };
    const keep = Math.min(this.config.TTS_CACHE_MAX_BYTES / 4, 32 * 1024 * 1024);
    const kept: Buffer[] = [];
    let keptBytes = 0;
    try {
      for await (const chunk of rechunk(audio.body, AUDIO_TRANSFER.chunkBytes)) {
        if (keptBytes <= keep) {
          kept.push(chunk);
          keptBytes += chunk.length;
        }
        yield { kind: 'data', data: chunk.toString('base64') };
      }
    } catch (error) {
      throw this.engineFailure(error);
    }
    if (signal.aborted || keptBytes === 0 || keptBytes > keep) return;
    const clip = { contentType: audio.contentType, requestId: audio.requestId, audio: Buffer.concat(kept) };
    await this.cache
      .put(
        {
          ...clip,
          userId,
          key,
          engine: this.engine.name,
          model: job.model,
          voice: job.voice,
          speed: job.speed,
          format: job.format,
          textChars: job.text.length,
        },
        { maxBytes: this.config.TTS_CACHE_MAX_BYTES, maxAgeSeconds: this.config.TTS_CACHE_TTL_SECONDS },
      )
      .catch((error: unknown) => this.logger.warn({ msg: 'Audio not cached', error: String(error) }, 'Speech'));
  }

  /** Checks, in order: the length (413), the conversation and message (404), the per-minute limit (429); then the job with the user's defaults. */
  private async prepare(caller: Caller, userId: string, request: SpeechRequest): Promise<Omit<SpeechJob, 'signal'>> {
    if (request.text.length > SPEECH_LIMITS.textMaxChars) throw new DomainError('payload_too_large', TEXT_TOO_LONG);
    if (request.chat_id === undefined && request.text.length > SPEECH_LIMITS.previewMaxChars) {
      throw new DomainError('payload_too_large', PREVIEW_TOO_LONG);
    }
    const text = request.normalize_text_for_reading ? normalizeTextForReading(request.text) : request.text;
    if (!text.trim()) throw new DomainError('validation_failed', NOTHING_TO_READ);
    if (request.chat_id !== undefined) {
      await this.rpc.call(
        CHAT_RPC.owned,
        { chat_id: request.chat_id, ...(request.message_id ? { message_id: request.message_id } : {}) },
        caller,
      );
    }
    await this.limiter.take('speech', userId);
    const settings = request.voice && request.speed !== undefined && request.openai_model ? null : await this.settingsOf(caller);
    const voice = request.voice ?? settings?.voice ?? DEFAULT_AI_VOICE_CONFIG.voice;
    const speed = request.speed ?? settings?.speed ?? DEFAULT_AI_VOICE_CONFIG.speed;
    const model =
      this.engine.model ??
      request.openai_model ??
      (this.engine.takesModelSetting ? settings?.openai_model : undefined) ??
      this.config.TTS_DEFAULT_MODEL;
    return { text, voice, speed, model, format: request.format };
  }

  /** The user's AI voice settings; the defaults when the settings service cannot say (speech still works). */
  private async settingsOf(caller: Caller): Promise<AiVoiceConfig | null> {
    try {
      return await this.rpc.call(INSIDER_CONFIG_RPC.getVoice, {}, caller);
    } catch (error) {
      this.logger.warn({ msg: 'Voice settings unavailable; defaults used', error: String(error) }, 'Speech');
      return null;
    }
  }

  private async *replay(cached: CachedAudio): AsyncGenerator<SpeechChunk> {
    yield {
      kind: 'head',
      content_type: cached.contentType,
      request_id: cached.requestId,
      engine: this.engine.name,
      cached: true,
      size: cached.audio.length,
    };
    for (let at = 0; at < cached.audio.length; at += AUDIO_TRANSFER.chunkBytes) {
      yield { kind: 'data', data: cached.audio.subarray(at, at + AUDIO_TRANSFER.chunkBytes).toString('base64') };
    }
  }

  private engineFailure(error: unknown): unknown {
    return engineFailureAnswer(error, this.logger, 'Speech engine failed');
  }
}

/** The cache's key: everything that changes the audio (the user is a column of its own). */
export function cacheKeyOf(engine: string, job: Omit<SpeechJob, 'signal'>): string {
  return createHash('sha256')
    .update(JSON.stringify([engine, job.model, job.voice, job.speed, job.format, job.text]))
    .digest('hex');
}
