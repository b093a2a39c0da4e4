import { Link, useSearchParams } from 'react-router';
import { LoginForm } from '../modules/auth/components/LoginForm';
import { continueAsGuest, useAuthStatus } from '../modules/auth/state/authStore';
import { currentInvite, rememberInvite } from '../modules/auth/utils/loginContext';
import { PublicPage } from '../modules/layout/components/PublicPage';
import { useNavigate } from 'react-router';
import { useState } from 'react';

export function LoginPage() {
  const [params] = useSearchParams();
  const status = useAuthStatus();
  const navigate = useNavigate();
  const [guestError, setGuestError] = useState<string | null>(null);
  const invite = params.get('invite') ?? currentInvite();
  rememberInvite(params.get('invite'));
  const next = params.get('next');
  return (
    <PublicPage
      title={status === 'registered' ? 'You are signed in' : 'Sign in'}
      subtitle="Keep your conversations and memories on every device."
    >
      <div className="card">
        {status === 'registered' ? (
          <p>
            <Link to="/chat" className="button button--primary">
              Go to the assistant
            </Link>
          </p>
        ) : (
          <LoginForm context={{ inviteLinkId: invite }} next={next} />
        )}
        {status === 'anonymous' && (
          <p className="muted small center">
            <Link to="/chat">Keep chatting as a guest</Link>
          </p>
        )}
        {status === 'logged-out' && (
          <p className="muted small center">
            <button
              type="button"
              className="link-button"
              onClick={async () => {
                setGuestError(null);
                if (await continueAsGuest()) navigate('/chat');
                else setGuestError('A guest session could not be started. Try again in a moment.');
              }}
            >
              Continue as a guest
            </button>
          </p>
        )}
        {guestError && (
          <p className="notice notice--error" role="alert">
            {guestError}
          </p>
        )}
      </div>
      <p className="muted small center">
        By continuing you agree to the <Link to="/terms">Terms of Use</Link> and the <Link to="/privacy">Privacy Policy</Link>. You must be
        18 or older.
      </p>
    </PublicPage>
  );
}
