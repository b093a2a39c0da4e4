import type { Campaign } from '@app/contracts/auth';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Spinner } from '../../../ui/Spinner';
import { PublicPage } from '../../layout/components/PublicPage';
import { fetchCampaign } from '../api/campaignApi';

type CampaignPageProps = {
  name: string;
  /** Where a visitor goes from a campaign that does not exist. */
  elsewhere: { to: string; label: string };
  children: (campaign: Campaign) => ReactNode;
};

/** A campaign's page: its title and words around the content, once read; else loading, or not found. */
export function CampaignPage({ name, elsewhere, children }: CampaignPageProps) {
  const campaign = useQuery({ queryKey: ['campaign', name], queryFn: () => fetchCampaign(name), retry: false });
  if (campaign.isLoading) {
    return (
      <PublicPage title="Loading…">
        <Spinner size="large" />
      </PublicPage>
    );
  }
  if (campaign.isError || !campaign.data) {
    return (
      <PublicPage title="Campaign not found">
        <p>{campaign.error instanceof Error ? campaign.error.message : 'No such campaign.'}</p>
        <Link to={elsewhere.to} className="button button--primary">
          {elsewhere.label}
        </Link>
      </PublicPage>
    );
  }
  return (
    <PublicPage title={campaign.data.title} subtitle={campaign.data.text}>
      {children(campaign.data)}
    </PublicPage>
  );
}
