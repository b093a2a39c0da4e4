import type { ServiceDefinition } from '@app/platform';
import { filesEnvSchema } from './config';
import { FileObjectEntity } from './files/file-object.entity';
import { FilesModule } from './files.module';
import { filesMigrations } from './migrations';
import { UploadSessionEntity } from './uploads/upload-session.entity';

export const filesService: ServiceDefinition = {
  name: 'files',
  module: FilesModule,
  config: filesEnvSchema,
  entities: [FileObjectEntity, UploadSessionEntity],
  migrations: filesMigrations,
  // Exported as rows (the gateway adds the bytes to the zip); moved on a guest merge (object keys
  // carry no user id, so nothing moves in the store); purged with their objects (FilesService.purgeUserData).
  userData: {
    tables: [
      { table: 'file_object', userColumn: 'user_id' },
      { table: 'upload_session', userColumn: 'user_id' },
    ],
  },
};
