import { Module } from '@nestjs/common';

/**
 * The sms service. The platform adds its health handler (`sms.health.check`), its database
 * (schema `sms`), the RPC client and the event publisher around this module.
 */
@Module({
  imports: [],
  controllers: [],
  providers: [],
})
export class SmsModule {}
