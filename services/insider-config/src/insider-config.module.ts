import { Module } from '@nestjs/common';
import { BusFlagsChanges } from './flags/flags-changes';
import { FlagsHandlers } from './flags/flags.handlers';
import { FlagsService } from './flags/flags.service';
import { InsiderStatusRepository } from './flags/insider-status.repository';
import { VoiceConfigRepository } from './voice/voice-config.repository';
import { VoiceHandlers } from './voice/voice.handlers';
import { VoiceService } from './voice/voice.service';

/** Insider mode, insider flags and the AI voice settings of each user. */
@Module({
  controllers: [FlagsHandlers, VoiceHandlers],
  providers: [FlagsService, BusFlagsChanges, InsiderStatusRepository, VoiceService, VoiceConfigRepository],
})
export class InsiderConfigModule {}
