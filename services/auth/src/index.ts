import type { ServiceDefinition } from '@app/platform';
import { AuthModule } from './auth.module';
import { authMigrations } from './migrations';

export const authService: ServiceDefinition = {
  name: 'auth',
  module: AuthModule,
  entities: [],
  migrations: authMigrations,
};
