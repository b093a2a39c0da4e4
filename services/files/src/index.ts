import type { ServiceDefinition } from '@app/platform';
import { FilesModule } from './files.module';
import { filesMigrations } from './migrations';

export const filesService: ServiceDefinition = {
  name: 'files',
  module: FilesModule,
  entities: [],
  migrations: filesMigrations,
};
