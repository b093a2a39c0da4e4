import { useParams } from 'react-router';
import { LoginForm } from '../modules/auth/components/LoginForm';
import { CampaignPage } from '../modules/campaigns/components/CampaignPage';

/** Campaign sign-in: the campaign's words, and a sign-in that records the campaign. */
export function KbaLoginPage() {
  const { campaignName = '' } = useParams();
  return (
    <CampaignPage name={campaignName} elsewhere={{ to: '/login', label: 'Sign in' }}>
      {() => (
        <div className="card">
          <LoginForm context={{ campaignName }} next={`/kba/${campaignName}`} />
        </div>
      )}
    </CampaignPage>
  );
}
