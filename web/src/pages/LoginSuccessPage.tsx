import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { loginWithToken, startAuth } from '../modules/auth/state/authStore';
import { clearInvite, destinationAfterLogin, forgetPhoneLogin, takeNext } from '../modules/auth/utils/loginContext';
import { acceptLoginState } from '../modules/auth/utils/loginState';
import { PublicPage } from '../modules/layout/components/PublicPage';
import { Spinner } from '../ui/Spinner';

const NOT_STARTED_HERE = 'This sign-in link was not started in this browser. Sign in again here.';

/**
 * Reads the token from the fragment and clears the fragment. The token is kept only when the
 * fragment's login_state is the nonce this tab made when it started the sign-in: a link made
 * anywhere else (someone else's token) signs nobody in.
 */
export function LoginSuccessPage() {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const fragment = new URLSearchParams(window.location.hash.replace(/^#/, ''));
    window.history.replaceState(window.history.state, '', window.location.pathname);
    const token = fragment.get('access_token');
    // Start-up left the session to this page (completesSignIn): when there is no sign-in to
    // complete, the stored session is checked (or a guest made) as on any other page.
    const failed = (message: string) => {
      setError(message);
      void startAuth();
    };
    if (!token) {
      failed('The sign-in link did not carry a session. Please sign in again.');
      return;
    }
    if (!acceptLoginState(fragment.get('login_state'))) {
      failed(NOT_STARTED_HERE);
      return;
    }
    forgetPhoneLogin();
    loginWithToken(token)
      .then((user) => {
        clearInvite();
        navigate(destinationAfterLogin(user, null, takeNext()), { replace: true });
      })
      .catch((caught) => failed(caught instanceof Error ? caught.message : 'The sign-in did not work.'));
  }, [navigate]);
  return (
    <PublicPage title={error ? 'Sign-in failed' : 'Signing you in…'}>
      {error ? (
        <>
          <p className="notice notice--error" role="alert">
            {error}
          </p>
          <Link to="/login" className="button button--primary">
            Back to sign in
          </Link>
        </>
      ) : (
        <Spinner size="large" label="Signing you in" />
      )}
    </PublicPage>
  );
}
