import type { LoginContext } from '../api/authApi';
import { useAppleReturn } from '../hooks/useAppleReturn';
import { useCallbackReturn } from '../hooks/useCallbackReturn';
import { usePhoneSignIn } from '../hooks/usePhoneSignIn';
import { useProviderConfigs } from '../hooks/useProviderConfigs';
import { useSignIn } from '../hooks/useSignIn';
import { useAuth } from '../state/authStore';
import { SignInWithApple } from './SignInWithApple';
import { SignInWithEmail } from './SignInWithEmail';
import { SignInWithGoogle } from './SignInWithGoogle';
import { SignInWithPhone } from './SignInWithPhone';

type LoginFormProps = { context: LoginContext; next: string | null };

/**
 * The sign-in screen: the phone number and code, then Google, Apple and e-mail (Firebase) when each
 * is configured. One component per method; what they share (busy, the error, finishing) is useSignIn.
 */
export function LoginForm({ context, next }: LoginFormProps) {
  const lastEmail = useAuth((s) => s.lastLoggedInEmail);
  const returned = useCallbackReturn();
  const signIn = useSignIn({ next, initialError: returned.error });
  const phone = usePhoneSignIn(signIn, { context, next, returned });
  const { googleClientId, appleConfig, firebaseConfig } = useProviderConfigs();
  useAppleReturn(signIn, context);

  const { error, busy } = signIn;
  const fieldError = error && error.at === phone.step ? error.message : null;
  return (
    <div className="login">
      {error && !fieldError && (
        <p className="notice notice--error" role="alert">
          {error.message}
        </p>
      )}
      <SignInWithPhone phone={phone} busy={busy} fieldError={fieldError} />
      {(googleClientId || appleConfig || firebaseConfig) && (
        <>
          <div className="divider">
            <span>or</span>
          </div>
          <div className="providers">
            {googleClientId && <SignInWithGoogle clientId={googleClientId} signIn={signIn} context={context} next={next} />}
            {appleConfig && <SignInWithApple config={appleConfig} busy={busy} next={next} />}
            {firebaseConfig && <SignInWithEmail config={firebaseConfig} signIn={signIn} context={context} lastEmail={lastEmail} />}
          </div>
        </>
      )}
      {lastEmail && <p className="muted small">Last signed in as {lastEmail}.</p>}
    </div>
  );
}
