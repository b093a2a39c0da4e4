import { Module } from '@nestjs/common';
import { FlagsHandlers } from './flags/flags.handlers';
import { FlagsService } from './flags/flags.service';
import { InsiderStatusRepository } from './flags/insider-status.repository';

/** Insider mode, insider flags and (to come) the AI voice settings of each user. */
@Module({
  controllers: [FlagsHandlers],
  providers: [FlagsService, InsiderStatusRepository],
})
export class InsiderConfigModule {}
