import type { Campaign } from '@app/contracts/auth';
import { DomainError } from '@app/platform';
import type { CampaignEntity } from './campaign.entity';
import { FakeAuthData } from '../store/auth-unit-of-work.fake';
import { CampaignsService } from './campaigns.service';

const spring: Campaign = { campaign_name: 'Spring', title: 'Spring', text: 'From the file', starter_prompts: ['Hi'] };

function service(campaignsJson?: string, rows: CampaignEntity[] = []): CampaignsService {
  const data = new FakeAuthData();
  for (const row of rows) data.tables.campaigns.set(row.campaignName.toLowerCase(), row);
  return new CampaignsService(data, { CAMPAIGNS_JSON: campaignsJson });
}

describe('CampaignsService', () => {
  it('finds a configured campaign whatever the case of its name', async () => {
    const campaigns = service(JSON.stringify([spring]));
    expect(await campaigns.find('spring')).toEqual(spring);
    expect(await campaigns.find('SPRING')).toEqual(spring);
  });

  it('prefers an active database row to the configuration', async () => {
    const row = { campaignName: 'spring', title: 'DB', text: 'From the database', starterPrompts: [], active: true } as CampaignEntity;
    expect(await service(JSON.stringify([spring]), [row]).get('Spring')).toEqual({
      campaign_name: 'spring',
      title: 'DB',
      text: 'From the database',
      starter_prompts: [],
    });
  });

  it('answers null from find and a 404 from get for an unknown campaign', async () => {
    const campaigns = service();
    expect(await campaigns.find('autumn')).toBeNull();
    const error = await campaigns.get('autumn').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).toShape()).toEqual({ status: 404, code: 'not_found', detail: 'No such campaign.' });
  });

  it('refuses to start with CAMPAIGNS_JSON that is not JSON, or not a list of campaigns', () => {
    expect(() => service('{nope')).toThrow('CAMPAIGNS_JSON is not valid JSON');
    expect(() => service('{"campaign_name":"x"}')).toThrow(/^CAMPAIGNS_JSON: /);
    expect(() => service(JSON.stringify([{ campaign_name: 'x' }]))).toThrow(/^CAMPAIGNS_JSON: /);
  });

  it('starts without campaigns when none are configured', async () => {
    expect(await service('').find('spring')).toBeNull();
    expect(await service('[]').find('spring')).toBeNull();
  });
});
