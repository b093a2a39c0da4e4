import { API } from '@app/contracts/gateway';
import { call } from '../../common/api/http';

export const fetchCampaign = (name: string) =>
  call(API.account.campaign, { params: { campaign_name: name } }, { public: true, bearer: false });
