import { Module } from '@nestjs/common';

/**
 * The tts service. The platform adds its health handler (`tts.health.check`), its database
 * (schema `tts`), the RPC client and the event publisher around this module.
 */
@Module({
  imports: [],
  controllers: [],
  providers: [],
})
export class TtsModule {}
