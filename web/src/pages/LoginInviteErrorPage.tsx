import { Link } from 'react-router';
import { clearInvite } from '../modules/auth/utils/loginContext';
import { PublicPage } from '../modules/layout/components/PublicPage';

export function LoginInviteErrorPage() {
  clearInvite();
  return (
    <PublicPage title="This invite cannot be used">
      <p>This invite link is not valid any more. It may have expired or been used up. Ask the person who invited you for a new link.</p>
      <p>
        <Link to="/login" className="button button--primary">
          Sign in without an invite
        </Link>
      </p>
    </PublicPage>
  );
}
