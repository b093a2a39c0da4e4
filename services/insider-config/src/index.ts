import type { ServiceDefinition } from '@app/platform';
import { insiderConfigEnvSchema } from './config';
import { InsiderStatusEntity } from './flags/insider-status.entity';
import { InsiderConfigModule } from './insider-config.module';
import { insiderConfigMigrations } from './migrations';

export const insiderConfigService: ServiceDefinition = {
  name: 'insider-config',
  module: InsiderConfigModule,
  config: insiderConfigEnvSchema,
  entities: [InsiderStatusEntity],
  migrations: insiderConfigMigrations,
  // A guest's insider standing means nothing once they sign in to an account: it is not carried over.
  userData: { tables: [{ table: 'insider_status', userColumn: 'user_id', onMerge: 'keep' }] },
};
