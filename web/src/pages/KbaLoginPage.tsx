import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { LoginForm } from '../modules/auth/components/LoginForm';
import { fetchCampaign } from '../modules/campaigns/api/campaignApi';
import { PublicPage } from '../ui/PublicPage';
import { Spinner } from '../ui/Spinner';

/** Campaign sign-in: the campaign's words, and a sign-in that records the campaign. */
export function KbaLoginPage() {
  const { campaignName = '' } = useParams();
  const [params] = useSearchParams();
  const campaign = useQuery({ queryKey: ['campaign', campaignName], queryFn: () => fetchCampaign(campaignName), retry: false });
  if (campaign.isLoading) return <PublicPage title="Loading…"><Spinner size="large" /></PublicPage>;
  if (campaign.isError) {
    return (
      <PublicPage title="Campaign not found">
        <p>{campaign.error instanceof Error ? campaign.error.message : 'No such campaign.'}</p>
        <Link to="/login" className="button button--primary">Sign in</Link>
      </PublicPage>
    );
  }
  return (
    <PublicPage title={campaign.data!.title} subtitle={campaign.data!.text}>
      <div className="card">
        <LoginForm context={{ campaignName }} next={`/kba/${campaignName}`} initialError={params.get('error')} />
      </div>
    </PublicPage>
  );
}
