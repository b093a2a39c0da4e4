import type { Campaign } from '@app/contracts/auth';
import { apiJson } from '../../common/api/http';

export const fetchCampaign = (name: string) => apiJson<Campaign>(`/api/v1/campaigns/${encodeURIComponent(name)}`, { bearer: false });
