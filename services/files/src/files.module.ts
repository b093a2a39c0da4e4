import { Module } from '@nestjs/common';

/**
 * The files service. The platform adds its health handler (`files.health.check`), its database
 * (schema `files`), the RPC client and the event publisher around this module.
 */
@Module({
  imports: [],
  controllers: [],
  providers: [],
})
export class FilesModule {}
