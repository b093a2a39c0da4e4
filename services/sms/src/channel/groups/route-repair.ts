import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { AppLogger, SERVICE_CONFIG } from '@app/platform';
import type { SmsConfig } from '../../config';
import { OutboundQueue } from '../outbound-queue';
import { queuedText } from '../queued-text';
import { ServiceNumbers } from '../service-numbers';
import { ChannelUnitOfWork } from '../store/channel-unit-of-work';
import { GroupsRepository } from '../store/groups.repository';
import { CHANNEL_TEXT, safeLabel } from '../texts';
import { GroupNumberPool } from './number-pool';

/**
 * Memberships without a number: two of a member's groups once shared one (before issue 21's
 * migration kept the oldest there), or the pool grew. At start-up each is given a number of the
 * pool free for that member, and the member is told by a text from it; one with none free stays
 * unrouted (neither written to nor counted) until the pool grows or they leave another group.
 */
@Injectable()
export class RouteRepair implements OnApplicationBootstrap {
  constructor(
    private readonly groups: GroupsRepository,
    private readonly pool: GroupNumberPool,
    private readonly store: ChannelUnitOfWork,
    private readonly outbound: OutboundQueue,
    private readonly service: ServiceNumbers,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<SmsConfig, 'ASSISTANT_NAME'>,
    private readonly logger: AppLogger,
  ) {}

  onApplicationBootstrap(): void {
    void this.repair().catch((error: unknown) =>
      this.logger.warn({ msg: 'Group numbers were not repaired', error: String(error) }, 'RouteRepair'),
    );
  }

  /** Answers how many memberships were given a number. */
  async repair(): Promise<number> {
    let repaired = 0;
    for (const member of await this.groups.unrouted(500)) {
      const { result, queued } = await this.store.transaction(async (tx) => {
        await tx.lockNumber(member.phoneNumber);
        const number = this.pool.freeNumber(await this.groups.numbersInUse(member.phoneNumber, tx.db));
        if (!number || !(await this.groups.route(tx.db, member.groupId, member.phoneNumber, number))) return false;
        const body = CHANNEL_TEXT.moved(this.config.ASSISTANT_NAME, safeLabel(member.groupName, 30, 'a group'));
        await tx.queue(
          queuedText({
            to: member.phoneNumber,
            from: number,
            body,
            purpose: 'notice',
            provider: this.service.provider,
            userId: member.userId,
            groupId: member.groupId,
          }),
        );
        return true;
      });
      await this.outbound.sendNow(queued);
      if (result) repaired++;
    }
    if (repaired) this.logger.log({ msg: 'Group memberships given a number of their own', repaired }, 'RouteRepair');
    return repaired;
  }
}
