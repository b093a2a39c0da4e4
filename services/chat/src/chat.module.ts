import { Module } from '@nestjs/common';

/**
 * The chat service. The platform adds its health handler (`chat.health.check`), its database
 * (schema `chat`), the RPC client and the event publisher around this module.
 */
@Module({
  imports: [],
  controllers: [],
  providers: [],
})
export class ChatModule {}
