import { Inject, Injectable } from '@nestjs/common';
import { INSIDER_FLAGS_CHANGED } from '@app/contracts/insider-config';
import { AppLogger, BUS, encode, type Bus } from '@app/platform';

/** Tells the services that keep users' effective flags for a moment that one user's changed. */
export interface FlagsChanges {
  announce(userId: string): void;
}

/** For the operator commands, which run without the bus (running replicas catch up within their cache's lifetime). */
export const UNANNOUNCED: FlagsChanges = { announce: () => undefined };

/** Said on the bus to every subscriber (INSIDER_FLAGS_CHANGED); a bus that is down loses nothing but a moment of freshness. */
@Injectable()
export class BusFlagsChanges implements FlagsChanges {
  constructor(
    @Inject(BUS) private readonly bus: Pick<Bus, 'publish'>,
    @Inject(AppLogger) private readonly logger: Pick<AppLogger, 'warn'>,
  ) {}

  announce(userId: string): void {
    try {
      this.bus.publish(INSIDER_FLAGS_CHANGED.subject, encode(INSIDER_FLAGS_CHANGED.payload.parse({ user_id: userId })));
    } catch (error) {
      this.logger.warn({ msg: 'Could not announce a change of insider flags', error: String(error) }, 'BusFlagsChanges');
    }
  }
}
