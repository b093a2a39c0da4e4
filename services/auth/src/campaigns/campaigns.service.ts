import { Inject, Injectable } from '@nestjs/common';
import { CampaignSchema, type Campaign } from '@app/contracts/auth';
import { DomainError, SERVICE_CONFIG } from '@app/platform';
import { z } from 'zod';
import type { AuthConfig } from '../config';
import { AuthUnitOfWork, type AuthData } from '../store/auth-unit-of-work';

/** Campaign pages: from the database first, then from CAMPAIGNS_JSON. */
@Injectable()
export class CampaignsService {
  private readonly configured: Map<string, Campaign>;

  constructor(
    @Inject(AuthUnitOfWork) private readonly store: AuthData,
    @Inject(SERVICE_CONFIG) config: Pick<AuthConfig, 'CAMPAIGNS_JSON'>,
  ) {
    this.configured = new Map();
    if (config.CAMPAIGNS_JSON) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(config.CAMPAIGNS_JSON);
      } catch {
        throw new Error('CAMPAIGNS_JSON is not valid JSON');
      }
      const campaigns = z.array(CampaignSchema).safeParse(parsed);
      if (!campaigns.success) throw new Error(`CAMPAIGNS_JSON: ${campaigns.error.issues[0]?.message ?? 'invalid'}`);
      for (const campaign of campaigns.data) this.configured.set(campaign.campaign_name.toLowerCase(), campaign);
    }
  }

  async find(name: string): Promise<Campaign | null> {
    const row = await this.store.repos.campaigns.findActive(name.toLowerCase());
    if (row) return { campaign_name: row.campaignName, title: row.title, text: row.text, starter_prompts: row.starterPrompts };
    return this.configured.get(name.toLowerCase()) ?? null;
  }

  async get(name: string): Promise<Campaign> {
    const campaign = await this.find(name);
    if (!campaign) throw DomainError.notFound('No such campaign.');
    return campaign;
  }
}
