import { Module } from '@nestjs/common';

/**
 * The insider-config service. The platform adds its health handler (`insider-config.health.check`), its database
 * (schema `insider_config`), the RPC client and the event publisher around this module.
 */
@Module({
  imports: [],
  controllers: [],
  providers: [],
})
export class InsiderConfigModule {}
