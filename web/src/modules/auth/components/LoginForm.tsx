import type { LoginResult } from '@app/contracts/auth';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Dialog } from '../../../ui/Dialog';
import { Field } from '../../../ui/Field';
import { Icon } from '../../../ui/Icon';
import { leavePage } from '../../common/utils/leavePage';
import { Spinner } from '../../../ui/Spinner';
import {
  devSmsInboxAvailable,
  devSmsInboxUrl,
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
import {
  destinationAfterLogin,
  normalizePhoneNumber,
  pendingPhoneLogin,
  rememberNext,
  rememberPhoneLogin,
  takeNext,
  type PendingPhoneLogin,
} from '../utils/loginContext';
import { plainLoginError } from '../utils/loginErrors';
import { startLoginState } from '../utils/loginState';

type LoginFormProps = { context: LoginContext; next: string | null };

type Step = 'phone' | 'code';

/** An error, and the field it belongs to (null: the form as a whole, e.g. a provider's refusal). */
type FormError = { message: string; at: Step | null };

const messageOf = (error: unknown) => (error instanceof Error ? error.message : 'Something went wrong. Try again.');

/**
 * Where the phone callback sent the browser back: `?step=code&error=...` (a wrong code that can be
 * tried again: the code step for the number the code was texted to) or `?error=...` (ask for a new
 * code: the number step, the number kept). Read once; the address loses both at once, so a reload
 * does not show the error again (and a reload of the code step stays on it).
 */
function useCallbackReturn() {
  const location = useLocation();
  const navigate = useNavigate();
  const [returned] = useState(() => {
    const params = new URLSearchParams(location.search);
    let pending = pendingPhoneLogin();
    const error = params.get('error');
    if (pending && error && params.get('step') !== 'code') {
      pending = { ...pending, codeSent: false };
      rememberPhoneLogin(pending);
    }
    const step: Step = pending?.codeSent && (!error || params.get('step') === 'code') ? 'code' : 'phone';
    return { pending, step, error: error ? { message: plainLoginError(error), at: step } : null };
  });
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    if (!params.has('error') && !params.has('step')) return;
    params.delete('error');
    params.delete('step');
    const search = params.toString();
    navigate(
      { pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash },
      { replace: true, state: location.state },
    );
  }, []); // once, on arrival
  return returned;
}

/** Phone number and code, then Google, Apple and Firebase when each is configured. */
export function LoginForm({ context, next }: LoginFormProps) {
  const navigate = useNavigate();
  const googleClientId = useAuth((s) => s.googleClientId);
  const appleConfig = useAuth((s) => s.appleConfig);
  const firebaseConfig = useAuth((s) => s.firebaseConfig);
  const lastEmail = useAuth((s) => s.lastLoggedInEmail);
  const returned = useCallbackReturn();
  const [pending, setPending] = useState<PendingPhoneLogin | null>(returned.pending);
  const [step, setStep] = useState<Step>(returned.step);
  const [phone, setPhone] = useState(returned.pending?.phoneNumber ?? '');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<FormError | null>(returned.error);
  const [info, setInfo] = useState<string | null>(
    returned.step === 'code' ? `Enter the code we texted to ${returned.pending?.phoneNumber}.` : null,
  );
  const [devInbox, setDevInbox] = useState(false);
  const [firebaseOpen, setFirebaseOpen] = useState(false);
  const [email, setEmail] = useState(lastEmail ?? '');
  const [password, setPassword] = useState('');
  const phoneInput = useRef<HTMLInputElement>(null);
  const codeInput = useRef<HTMLInputElement>(null);
  /** The field to focus after the next render (an error under it, or a step just shown). */
  const focusNext = useRef<Step | null>(returned.error ? returned.step : null);

  useEffect(() => {
    const target = focusNext.current;
    if (!target) return;
    focusNext.current = null;
    (target === 'code' ? codeInput : phoneInput).current?.focus();
  });

  useEffect(() => {
    let cancelled = false;
    void Promise.all([fetchGoogleConfig(), fetchAppleConfig(), fetchFirebaseConfig()]).then(([google, apple, firebase]) => {
      if (!cancelled) setProviderConfigs({ googleClientId: google?.client_id ?? null, appleConfig: apple, firebaseConfig: firebase });
    });
    return () => {
      cancelled = true;
    };
  }, []);

  const inboxNumber = step === 'code' ? (pending?.phoneNumber ?? null) : null;
  useEffect(() => {
    if (!inboxNumber) return;
    let cancelled = false;
    void devSmsInboxAvailable(inboxNumber).then((available) => !cancelled && setDevInbox(available));
    return () => {
      cancelled = true;
    };
  }, [inboxNumber]);

  /** Every error shown by this form goes through here: no field names, focus on the field it is about. */
  const showError = (message: string, at: Step | null) => {
    setError({ message: plainLoginError(message), at });
    focusNext.current = at;
  };

  const finish = async (result: LoginResult) => {
    if (!result.token) {
      if (result.redirect_url) return navigate(result.redirect_url, { replace: true });
      throw new Error(result.error ?? 'The sign-in did not work. Try again.');
    }
    const user = await loginWithToken(result.token);
    navigate(destinationAfterLogin(user, result.redirect_url, next ?? takeNext()), { replace: true });
  };

  const run = async (action: () => Promise<void>, at: Step | null = null) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (caught) {
      showError(messageOf(caught), at);
    } finally {
      setBusy(false);
    }
  };

  // Back from Apple (redirect with the answer in the fragment).
  useEffect(() => {
    const back = readAppleReturn(window.location.hash);
    if (!back) return;
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
    void run(async () =>
      finish(
        await loginWithApple(
          { code: back.code, id_token: back.id_token, state: back.state, nonce: back.nonce, use_app_client_id: false },
          await ensureCsrfToken(),
          context,
        ),
      ),
    );
  }, []);

  /** Texts a code to the number typed (phone step) or to the number of the code step ("Send a new code"). */
  const sendCode = (event?: FormEvent) => {
    event?.preventDefault();
    const phoneNumber = step === 'code' && pending ? pending.phoneNumber : normalizePhoneNumber(phone);
    void run(async () => {
      const csrf = await ensureCsrfToken();
      const sent = await sendPhoneCode(phoneNumber, csrf, context);
      const remembered = { phoneNumber, campaignName: context.campaignName ?? null, codeSent: true };
      rememberPhoneLogin(remembered);
      setPending(remembered);
      setStep('code');
      setCode('');
      setInfo(`We texted a 6-digit code to ${phoneNumber}. It works for ${Math.round(sent.expires_in_seconds / 60)} minutes.`);
      focusNext.current = 'code';
    }, step);
  };

  const verify = (event: FormEvent) => {
    event.preventDefault();
    if (!pending) return;
    rememberNext(next);
    setBusy(true);
    // A full page navigation: the server answers with a redirect to /login-success or back here.
    const flow = { ...context, campaignName: context.campaignName ?? pending.campaignName };
    leavePage(phoneCallbackUrl(pending.phoneNumber, code.trim(), startLoginState(), flow));
  };

  const changeNumber = () => {
    if (pending) rememberPhoneLogin({ ...pending, codeSent: false });
    setStep('phone');
    setCode('');
    setError(null);
    setInfo(null);
    focusNext.current = 'phone';
  };

  const google = () =>
    run(async () => {
      if (!googleClientId) return;
      const googleCode = await requestGoogleCode(googleClientId);
      if (!googleCode) {
        // The popup script cannot load here: the redirect flow ends at /login-success as well.
        rememberNext(next);
        leavePage(googleRedirectUrl(startLoginState(), context));
        return;
      }
      await finish(await loginWithGoogle(googleCode, await ensureCsrfToken(), context));
    });

  const fieldError = error && error.at === step ? error.message : null;
  const askingAgain = !!pending && normalizePhoneNumber(phone) === pending.phoneNumber;

  return (
    <div className="login">
      {error && !fieldError && (
        <p className="notice notice--error" role="alert">
          {error.message}
        </p>
      )}
      {step === 'phone' ? (
        <form className="form" onSubmit={sendCode}>
          <Field label="Mobile number" hint="Include the country code. We text you a code; message rates may apply." problem={fieldError}>
            {(control) => (
              <input
                {...control}
                ref={phoneInput}
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
            )}
          </Field>
          <button type="submit" className="button button--primary button--block" disabled={busy || phone.trim().length < 4}>
            {busy ? <Spinner label="Sending the code" /> : askingAgain ? 'Text me a new code' : 'Text me a code'}
          </button>
        </form>
      ) : (
        <form className="form" onSubmit={verify}>
          {info && (
            <p className="notice notice--info" role="status">
              {info}
            </p>
          )}
          <Field label="Code" problem={fieldError}>
            {(control) => (
              <input
                {...control}
                ref={codeInput}
                type="text"
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="[0-9]*"
                placeholder="123456"
                value={code}
                onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, 12))}
                required
              />
            )}
          </Field>
          <button type="submit" className="button button--primary button--block" disabled={busy || code.length < 4}>
            {busy ? <Spinner label="Signing in" /> : 'Sign in'}
          </button>
          <div className="login__row">
            <button type="button" className="link-button" onClick={changeNumber}>
              Use a different number
            </button>
            <button type="button" className="link-button" onClick={() => sendCode()} disabled={busy}>
              Send a new code
            </button>
          </div>
          {devInbox && inboxNumber && (
            <p className="dev-note">
              <Icon name="info" size={14} /> Development: see the{' '}
              <a href={devSmsInboxUrl(inboxNumber)} target="_blank" rel="noopener noreferrer">
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
                <span className="provider-mark" aria-hidden="true">
                  G
                </span>{' '}
                Continue with Google
              </button>
            )}
            {appleConfig && (
              <button
                type="button"
                className="button button--provider"
                disabled={busy}
                onClick={() => {
                  rememberNext(next);
                  leavePage(appleAuthorizeUrl(appleConfig));
                }}
              >
                <span className="provider-mark" aria-hidden="true"></span> Continue with Apple
              </button>
            )}
            {firebaseConfig && (
              <button type="button" className="button button--provider" onClick={() => setFirebaseOpen(true)} disabled={busy}>
                <span className="provider-mark" aria-hidden="true">
                  @
                </span>{' '}
                Continue with e-mail
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
              void run(async () =>
                finish(
                  await loginWithFirebase(
                    await firebaseEmailSignIn(firebaseConfig, email, password),
                    'password',
                    await ensureCsrfToken(),
                    context,
                  ),
                ),
              );
            }}
          >
            <Field label="E-mail">
              {(control) => (
                <input
                  {...control}
                  type="email"
                  autoComplete="email"
                  value={email}
                  onChange={(event) => setEmail(event.target.value)}
                  required
                />
              )}
            </Field>
            <Field label="Password">
              {(control) => (
                <input
                  {...control}
                  type="password"
                  autoComplete="current-password"
                  value={password}
                  onChange={(event) => setPassword(event.target.value)}
                  required
                />
              )}
            </Field>
            <button type="submit" className="button button--primary button--block">
              Sign in
            </button>
          </form>
        </Dialog>
      )}
    </div>
  );
}
