import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { fetchCampaign } from '../modules/campaigns/api/campaignApi';
import { PublicPage } from '../ui/PublicPage';
import { Spinner } from '../ui/Spinner';

/** A campaign page: its text and prompts to start a conversation with. */
export function KbaPage() {
  const { campaignName = '' } = useParams();
  const navigate = useNavigate();
  const campaign = useQuery({ queryKey: ['campaign', campaignName], queryFn: () => fetchCampaign(campaignName), retry: false });
  if (campaign.isLoading) return <PublicPage title="Loading…"><Spinner size="large" /></PublicPage>;
  if (campaign.isError || !campaign.data) {
    return (
      <PublicPage title="Campaign not found">
        <p>{campaign.error instanceof Error ? campaign.error.message : 'No such campaign.'}</p>
        <Link to="/chat" className="button button--primary">Go to the assistant</Link>
      </PublicPage>
    );
  }
  return (
    <PublicPage title={campaign.data.title} subtitle={campaign.data.text}>
      <h2 className="section-title">Try asking</h2>
      <ul className="suggestions">
        {campaign.data.starter_prompts.map((prompt) => (
          <li key={prompt}>
            <button type="button" className="suggestion" onClick={() => navigate('/chat', { state: { prompt } })}>
              {prompt}
            </button>
          </li>
        ))}
      </ul>
      <p>
        <Link to="/chat" className="button button--primary">Open the assistant</Link>
      </p>
    </PublicPage>
  );
}
