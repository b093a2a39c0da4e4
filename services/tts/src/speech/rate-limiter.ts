import { Inject, Injectable } from '@nestjs/common';
import { SERVICE_CONFIG, Throttler } from '@app/platform';
import type { TtsConfig } from '../config';

export const TOO_MANY_VOICE_REQUESTS = 'Too many voice requests. Please wait a moment and try again.';

/**
 * Voice requests per user and clock minute (TTS_REQUESTS_PER_MINUTE), counted by the platform's
 * throttler. Speech and transcription are counted apart.
 */
@Injectable()
export class VoiceRateLimiter {
  constructor(
    @Inject(Throttler) private readonly throttler: Pick<Throttler, 'take'>,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<TtsConfig, 'TTS_REQUESTS_PER_MINUTE'>,
  ) {}

  /** The clock (a test sets its own). */
  now: () => number = Date.now;

  /** Counts one request of the user; throws 429 past the limit. */
  take(scope: 'speech' | 'stt', userId: string): Promise<void> {
    const limit = {
      name: `tts:rate:${scope}`,
      limit: this.config.TTS_REQUESTS_PER_MINUTE,
      windowMs: 60_000,
      detail: TOO_MANY_VOICE_REQUESTS,
    };
    return this.throttler.take(limit, userId, this.now());
  }
}
