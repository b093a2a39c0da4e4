import { API } from '@app/contracts/gateway';
import { apiCall } from '../../common/api/http';

export const fetchCampaign = (name: string) => apiCall(API.account.campaign, { params: { campaign_name: name } }, { bearer: false });
