import { Module } from '@nestjs/common';
import { USER_DATA_PURGE_HOOK } from '@app/platform';
import { DerivedContentService } from './files/derived-content.service';
import { FilesHandlers } from './files/files.handlers';
import { FilesRepository } from './files/files.repository';
import { FilesService } from './files/files.service';
import { objectStoreProvider } from './store/object-store.factory';
import { UploadsService } from './uploads/uploads.service';

/**
 * The files service: uploads in chunks, the object store (a local folder or S3), signed links,
 * previews, bodies streamed in chunks, files as the model takes them. The platform adds its
 * health handler, its database (schema `files`), export, purge and merge around this module; the
 * purge calls USER_DATA_PURGE_HOOK first, so the objects go with the rows.
 */
@Module({
  controllers: [FilesHandlers],
  providers: [
    objectStoreProvider,
    FilesRepository,
    DerivedContentService,
    UploadsService,
    FilesService,
    { provide: USER_DATA_PURGE_HOOK, useExisting: FilesService },
  ],
  exports: [USER_DATA_PURGE_HOOK],
})
export class FilesModule {}
