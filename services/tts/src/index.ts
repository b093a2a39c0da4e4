import type { ServiceDefinition } from '@app/platform';
import { TtsModule } from './tts.module';
import { ttsMigrations } from './migrations';

export const ttsService: ServiceDefinition = {
  name: 'tts',
  module: TtsModule,
  entities: [],
  migrations: ttsMigrations,
};
