import { Module } from '@nestjs/common';

/**
 * The auth service. The platform adds its health handler (`auth.health.check`), its database
 * (schema `auth`), the RPC client and the event publisher around this module.
 */
@Module({
  imports: [],
  controllers: [],
  providers: [],
})
export class AuthModule {}
