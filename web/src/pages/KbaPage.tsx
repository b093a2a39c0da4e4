import { Link, useNavigate, useParams } from 'react-router';
import { CampaignPage } from '../modules/campaigns/components/CampaignPage';

/** A campaign page: its text and prompts to start a conversation with. */
export function KbaPage() {
  const { campaignName = '' } = useParams();
  const navigate = useNavigate();
  return (
    <CampaignPage name={campaignName} elsewhere={{ to: '/chat', label: 'Go to the assistant' }}>
      {(campaign) => (
        <>
          <h2 className="section-title">Try asking</h2>
          <ul className="suggestions">
            {campaign.starter_prompts.map((prompt) => (
              <li key={prompt}>
                <button type="button" className="suggestion" onClick={() => navigate('/chat', { state: { prompt } })}>
                  {prompt}
                </button>
              </li>
            ))}
          </ul>
          <p>
            <Link to="/chat" className="button button--primary">
              Open the assistant
            </Link>
          </p>
        </>
      )}
    </CampaignPage>
  );
}
