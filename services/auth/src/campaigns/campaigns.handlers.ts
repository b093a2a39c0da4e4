import { Controller } from '@nestjs/common';
import { AUTH_RPC } from '@app/contracts/auth';
import { RpcHandler, type RpcInput } from '@app/platform';
import { CampaignsService } from './campaigns.service';

/** Campaign pages. */
@Controller()
export class CampaignsHandlers {
  constructor(private readonly campaigns: CampaignsService) {}

  @RpcHandler(AUTH_RPC.campaign)
  campaign({ data }: RpcInput<typeof AUTH_RPC.campaign>) {
    return this.campaigns.get(data.campaign_name);
  }
}
