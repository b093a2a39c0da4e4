import type { EntityManager } from 'typeorm';
import { InviteEntity, InviteRedemptionEntity } from './invite.entity';

export class InvitesRepository {
  constructor(private readonly manager: EntityManager) {}

  find(id: string): Promise<InviteEntity | null> {
    return this.manager.findOne(InviteEntity, { where: { id } });
  }

  findForUpdate(id: string): Promise<InviteEntity | null> {
    return this.manager.findOne(InviteEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  async insert(invite: Omit<InviteEntity, 'createdAt' | 'uses'>): Promise<InviteEntity> {
    await this.manager.insert(InviteEntity, { ...invite, uses: 0 });
    return (await this.find(invite.id))!;
  }

  hasRedeemed(inviteId: string, userId: string): Promise<boolean> {
    return this.manager.exists(InviteRedemptionEntity, { where: { inviteId, userId } });
  }

  async redeem(invite: InviteEntity, userId: string): Promise<void> {
    await this.manager.insert(InviteRedemptionEntity, { inviteId: invite.id, userId });
    await this.manager.increment(InviteEntity, { id: invite.id }, 'uses', 1);
  }
}
