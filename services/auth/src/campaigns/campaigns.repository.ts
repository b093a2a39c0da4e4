import type { EntityManager } from 'typeorm';
import { CampaignEntity } from './campaign.entity';

export class CampaignsRepository {
  constructor(private readonly manager: EntityManager) {}

  findActive(campaignName: string): Promise<CampaignEntity | null> {
    return this.manager.findOne(CampaignEntity, { where: { campaignName, active: true } });
  }
}
