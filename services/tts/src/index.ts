import type { ServiceDefinition } from '@app/platform';
import { ttsEnvSchema } from './config';
import { ttsMigrations } from './migrations';
import { TtsModule } from './tts.module';

export const ttsService: ServiceDefinition = {
  name: 'tts',
  module: TtsModule,
  config: ttsEnvSchema,
  entities: [],
  migrations: ttsMigrations,
  // Cached audio: exported as what is kept (engine, model, voice, format, characters, size, dates;
  // never the text, only a hash of the request, nor the bytes); purged with the account (the bytes
  // go with their row); a guest's cache is dropped when it signs in to an account (a cache, not data to move).
  // Recordings for speech-to-text live ten minutes at most in the key-value store and are not kept.
  userData: { tables: [{ table: 'audio_cache', userColumn: 'user_id', onMerge: 'keep' }] },
};
