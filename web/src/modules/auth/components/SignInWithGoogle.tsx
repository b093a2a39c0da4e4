import { leavePage } from '../../common/utils/leavePage';
import { googleRedirectUrl, loginWithGoogle, type LoginContext } from '../api/authApi';
import type { SignIn } from '../hooks/useSignIn';
import { ensureCsrfToken } from '../state/authStore';
import { rememberNext } from '../utils/loginContext';
import { requestGoogleCode } from '../utils/google';
import { startLoginState } from '../utils/loginState';

type SignInWithGoogleProps = { clientId: string; signIn: SignIn; context: LoginContext; next: string | null };

/** Google's popup; where its script cannot load, the redirect flow (it ends at /login-success as well). */
export function SignInWithGoogle({ clientId, signIn, context, next }: SignInWithGoogleProps) {
  const start = () =>
    signIn.run(async () => {
      const googleCode = await requestGoogleCode(clientId);
      if (!googleCode) {
        rememberNext(next);
        leavePage(googleRedirectUrl(startLoginState(), context));
        return;
      }
      await signIn.finish(await loginWithGoogle(googleCode, await ensureCsrfToken(), context));
    });
  return (
    <button type="button" className="button button--provider" onClick={start} disabled={signIn.busy}>
      <span className="provider-mark" aria-hidden="true">
        G
      </span>{' '}
      Continue with Google
    </button>
  );
}
