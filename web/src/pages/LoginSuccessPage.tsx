import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { loginWithToken } from '../modules/auth/state/authStore';
import { clearInvite, destinationAfterLogin, takeNext } from '../modules/auth/utils/loginContext';
import { PublicPage } from '../ui/PublicPage';
import { Spinner } from '../ui/Spinner';

/** Reads the token from the fragment, stores it, clears the fragment, and moves on. */
export function LoginSuccessPage() {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const token = new URLSearchParams(window.location.hash.replace(/^#/, '')).get('access_token');
    window.history.replaceState(window.history.state, '', window.location.pathname);
    if (!token) {
      setError('The sign-in link did not carry a session. Please sign in again.');
      return;
    }
    loginWithToken(token)
      .then((user) => {
        clearInvite();
        navigate(destinationAfterLogin(user, null, takeNext()), { replace: true });
      })
      .catch((caught) => setError(caught instanceof Error ? caught.message : 'The sign-in did not work.'));
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
