import type { ServiceDefinition } from '@app/platform';
import { insiderConfigEnvSchema } from './config';
import { InsiderStatusEntity } from './flags/insider-status.entity';
import { InsiderConfigModule } from './insider-config.module';
import { insiderConfigMigrations } from './migrations';
import { VoiceConfigEntity } from './voice/voice-config.entity';

export const insiderConfigService: ServiceDefinition = {
  name: 'insider-config',
  module: InsiderConfigModule,
  config: insiderConfigEnvSchema,
  entities: [InsiderStatusEntity, VoiceConfigEntity],
  migrations: insiderConfigMigrations,
  userData: {
    tables: [
      // A guest's insider standing means nothing once they sign in to an account: it is not carried over.
      { table: 'insider_status', userColumn: 'user_id', onMerge: 'keep' },
      // Kept, not moved: one row per user, so moving a guest's row onto an account that has its own
      // would break the primary key and with it the whole merge. The account keeps its own settings
      // (the defaults if it has none).
      { table: 'voice_config', userColumn: 'user_id', onMerge: 'keep' },
    ],
  },
};
