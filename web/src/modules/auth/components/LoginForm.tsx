import type { LoginResult } from '@app/contracts/auth';
import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Dialog } from '../../../ui/Dialog';
import { Icon } from '../../../ui/Icon';
import { Spinner } from '../../../ui/Spinner';
import {
  devSmsInboxAvailable,
  fetchAppleConfig,
  fetchFirebaseConfig,
  fetchGoogleConfig,
  googleRedirectUrl,
  loginWithApple,
  loginWithFirebase,
  loginWithGoogle,
  phoneCallbackUrl,
  sendPhoneCode,
  type LoginContext,
} from '../api/authApi';
import { ensureCsrfToken, loginWithToken, setProviderConfigs, useAuth } from '../state/authStore';
import { appleAuthorizeUrl, readAppleReturn } from '../utils/apple';
import { firebaseEmailSignIn } from '../utils/firebase';
import { requestGoogleCode } from '../utils/google';
import { destinationAfterLogin, rememberNext, takeNext } from '../utils/loginContext';

type LoginFormProps = { context: LoginContext; next: string | null; initialError?: string | null };

type Step = 'phone' | 'code';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : 'Something went wrong. Try again.');

/** Phone number and code, then Google, Apple and Firebase when each is configured. */
export function LoginForm({ context, next, initialError }: LoginFormProps) {
  const navigate = useNavigate();
  const googleClientId = useAuth((s) => s.googleClientId);
  const appleConfig = useAuth((s) => s.appleConfig);
  const firebaseConfig = useAuth((s) => s.firebaseConfig);
  const lastEmail = useAuth((s) => s.lastLoggedInEmail);
  const [step, setStep] = useState<Step>('phone');
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(initialError ?? null);
  const [info, setInfo] = useState<string | null>(null);
  const [devInbox, setDevInbox] = useState(false);
  const [firebaseOpen, setFirebaseOpen] = useState(false);
  const [email, setEmail] = useState(lastEmail ?? '');
  const [password, setPassword] = useState('');

  useEffect(() => {
    let cancelled = false;
    void Promise.all([fetchGoogleConfig(), fetchAppleConfig(), fetchFirebaseConfig()]).then(([google, apple, firebase]) => {
      if (!cancelled) setProviderConfigs({ googleClientId: google?.client_id ?? null, appleConfig: apple, firebaseConfig: firebase });
    });
    return () => {
      cancelled = true;
    };
  }, []);

  useEffect(() => {
    if (step !== 'code') return;
    let cancelled = false;
    void devSmsInboxAvailable().then((available) => !cancelled && setDevInbox(available));
    return () => {
      cancelled = true;
    };
  }, [step]);

  const finish = async (result: LoginResult) => {
    if (!result.token) {
      if (result.redirect_url) return navigate(result.redirect_url, { replace: true });
      throw new Error(result.error ?? 'The sign-in did not work. Try again.');
    }
    const user = await loginWithToken(result.token);
    navigate(destinationAfterLogin(user, result.redirect_url, next ?? takeNext()), { replace: true });
  };

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setBusy(false);
    }
  };

  // Back from Apple (redirect with the answer in the fragment).
  useEffect(() => {
    const back = readAppleReturn(window.location.hash);
    if (!back) return;
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
    void run(async () => finish(await loginWithApple({ code: back.code, id_token: back.id_token, state: back.state, nonce: back.nonce, use_app_client_id: false }, await ensureCsrfToken(), context)));
  }, []);

  const sendCode = (event?: FormEvent) => {
    event?.preventDefault();
    void run(async () => {
      const csrf = await ensureCsrfToken();
      const sent = await sendPhoneCode(phone.trim(), csrf, context);
      setStep('code');
      setCode('');
      setInfo(`We texted a 6-digit code to ${phone.trim()}. It works for ${Math.round(sent.expires_in_seconds / 60)} minutes.`);
    });
  };

  const verify = (event: FormEvent) => {
    event.preventDefault();
    rememberNext(next);
    setBusy(true);
    // A full page navigation: the server answers with a redirect to /login-success or back here.
    window.location.assign(phoneCallbackUrl(phone.trim(), code.trim(), context));
  };

  const google = () =>
    run(async () => {
      if (!googleClientId) return;
      const googleCode = await requestGoogleCode(googleClientId);
      if (!googleCode) {
        // The popup script cannot load here: the redirect flow ends at /login-success as well.
        rememberNext(next);
        window.location.assign(googleRedirectUrl(context));
        return;
      }
      await finish(await loginWithGoogle(googleCode, await ensureCsrfToken(), context));
    });

  return (
    <div className="login">
      {error && (
        <p className="notice notice--error" role="alert">
          {error}
        </p>
      )}
      {step === 'phone' ? (
        <form className="form" onSubmit={sendCode}>
          <label className="field">
            <span>Mobile number</span>
            <input
              type="tel"
              inputMode="tel"
              autoComplete="tel"
              placeholder="+1 415 555 0100"
              value={phone}
              onChange={(event) => setPhone(event.target.value)}
              required
              minLength={4}
              maxLength={32}
            />
            <small className="muted">Include the country code. We text you a code; message rates may apply.</small>
          </label>
          <button type="submit" className="button button--primary button--block" disabled={busy || phone.trim().length < 4}>
            {busy ? <Spinner label="Sending the code" /> : 'Text me a code'}
          </button>
        </form>
      ) : (
        <form className="form" onSubmit={verify}>
          {info && (
            <p className="notice notice--info" role="status">
              {info}
            </p>
          )}
          <label className="field">
            <span>Code</span>
            <input
              type="text"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]*"
              placeholder="123456"
              value={code}
              onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, 12))}
              required
              autoFocus
            />
          </label>
          <button type="submit" className="button button--primary button--block" disabled={busy || code.length < 4}>
            {busy ? <Spinner label="Signing in" /> : 'Sign in'}
          </button>
          <div className="login__row">
            <button type="button" className="link-button" onClick={() => setStep('phone')}>
              Change number
            </button>
            <button type="button" className="link-button" onClick={() => sendCode()} disabled={busy}>
              Send a new code
            </button>
          </div>
          {devInbox && (
            <p className="dev-note">
              <Icon name="info" size={14} /> Development: see the{' '}
              <a href="/api/v1/dev/sms" target="_blank" rel="noopener noreferrer">
                SMS inbox
              </a>
            </p>
          )}
        </form>
      )}

      {(googleClientId || appleConfig || firebaseConfig) && (
        <>
          <div className="divider">
            <span>or</span>
          </div>
          <div className="providers">
            {googleClientId && (
              <button type="button" className="button button--provider" onClick={google} disabled={busy}>
                <span className="provider-mark" aria-hidden="true">G</span> Continue with Google
              </button>
            )}
            {appleConfig && (
              <button
                type="button"
                className="button button--provider"
                disabled={busy}
                onClick={() => {
                  rememberNext(next);
                  window.location.assign(appleAuthorizeUrl(appleConfig));
                }}
              >
                <span className="provider-mark" aria-hidden="true"></span> Continue with Apple
              </button>
            )}
            {firebaseConfig && (
              <button type="button" className="button button--provider" onClick={() => setFirebaseOpen(true)} disabled={busy}>
                <span className="provider-mark" aria-hidden="true">@</span> Continue with e-mail
              </button>
            )}
          </div>
        </>
      )}
      {lastEmail && <p className="muted small">Last signed in as {lastEmail}.</p>}

      {firebaseConfig && (
        <Dialog open={firebaseOpen} title="Sign in with e-mail" onClose={() => setFirebaseOpen(false)}>
          <form
            className="form"
            onSubmit={(event) => {
              event.preventDefault();
              setFirebaseOpen(false);
              void run(async () => finish(await loginWithFirebase(await firebaseEmailSignIn(firebaseConfig, email, password), 'password', await ensureCsrfToken(), context)));
            }}
          >
            <label className="field">
              <span>E-mail</span>
              <input type="email" autoComplete="email" value={email} onChange={(event) => setEmail(event.target.value)} required />
            </label>
            <label className="field">
              <span>Password</span>
              <input type="password" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} required />
            </label>
            <button type="submit" className="button button--primary button--block">
              Sign in
            </button>
          </form>
        </Dialog>
      )}
    </div>
  );
}
