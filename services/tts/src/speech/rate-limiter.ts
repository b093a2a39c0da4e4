import { Inject, Injectable } from '@nestjs/common';
import { DomainError, KEY_VALUE_STORE, SERVICE_CONFIG, type KeyValueStore } from '@app/platform';
import type { TtsConfig } from '../config';

export const TOO_MANY_VOICE_REQUESTS = 'Too many voice requests. Please wait a moment and try again.';

/**
 * Voice requests per user and minute (TTS_REQUESTS_PER_MINUTE), counted in the platform's
 * key-value store (Redis in the distributed mode, so every replica sees one count; memory in the
 * embedded one), in fixed one-minute windows. Speech and transcription are counted apart.
 */
@Injectable()
export class VoiceRateLimiter {
  constructor(
    @Inject(KEY_VALUE_STORE) private readonly kv: KeyValueStore,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<TtsConfig, 'TTS_REQUESTS_PER_MINUTE'>,
  ) {}

  /** The clock (a test sets its own). */
  now: () => number = Date.now;

  /** Counts one request of the user; throws 429 past the limit. */
  async take(scope: 'speech' | 'stt', userId: string): Promise<void> {
    const now = this.now();
    const window = Math.floor(now / 60_000);
    const count = await this.kv.increment(`tts:rate:${scope}:${userId}:${window}`, 61);
    if (count > this.config.TTS_REQUESTS_PER_MINUTE) {
      const retryAfterSeconds = Math.max(1, Math.ceil(((window + 1) * 60_000 - now) / 1000));
      throw new DomainError('rate_limited', TOO_MANY_VOICE_REQUESTS, 429, { retryAfterSeconds });
    }
  }
}
