import type { ServiceDefinition } from '@app/platform';
import { InsiderConfigModule } from './insider-config.module';
import { insiderConfigMigrations } from './migrations';

export const insiderConfigService: ServiceDefinition = {
  name: 'insider-config',
  module: InsiderConfigModule,
  entities: [],
  migrations: insiderConfigMigrations,
};
