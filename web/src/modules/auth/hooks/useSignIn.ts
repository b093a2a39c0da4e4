import type { LoginResult } from '@app/contracts/auth';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { loginWithToken } from '../state/authStore';
import { destinationAfterLogin, takeNext } from '../utils/loginContext';
import { plainLoginError } from '../utils/loginErrors';

/** The sign-in form's fields that an error can belong to. */
export type SignInStep = 'phone' | 'code';

/** An error, and the field it belongs to (null: the form as a whole, e.g. a provider's refusal). */
export type SignInError = { message: string; at: SignInStep | null };

const messageOf = (error: unknown) => (error instanceof Error ? error.message : 'Something went wrong. Try again.');

/**
 * What every sign-in method shares: one attempt at a time (`busy`), the error shown (in plain
 * words, focused on the field it is about), and `finish`, which takes the server's answer to the
 * page the user was going to.
 */
export function useSignIn({ next, initialError }: { next: string | null; initialError: SignInError | null }) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<SignInError | null>(initialError);
  /** The field to focus after the next render (an error under it, or a step just shown). */
  const focusNext = useRef<SignInStep | null>(initialError?.at ?? null);

  /** Every error shown by the form goes through here: no field names, focus on the field it is about. */
  const showError = (message: string, at: SignInStep | null) => {
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

  /** Runs one attempt: busy meanwhile, its failure shown at `at`. */
  const run = async (action: () => Promise<void>, at: SignInStep | null = null) => {
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

  return { busy, setBusy, error, setError, focusNext, run, finish };
}

export type SignIn = ReturnType<typeof useSignIn>;
