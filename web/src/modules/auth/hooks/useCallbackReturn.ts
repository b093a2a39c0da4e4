import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { pendingPhoneLogin, rememberPhoneLogin } from '../utils/loginContext';
import { plainLoginError } from '../utils/loginErrors';
import type { SignInError, SignInStep } from './useSignIn';

/**
 * Where the phone callback sent the browser back: `?step=code&error=...` (a wrong code that can be
 * tried again: the code step for the number the code was texted to) or `?error=...` (ask for a new
 * code: the number step, the number kept). Read once; the address loses both at once, so a reload
 * does not show the error again (and a reload of the code step stays on it).
 */
export function useCallbackReturn() {
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
    const step: SignInStep = pending?.codeSent && (!error || params.get('step') === 'code') ? 'code' : 'phone';
    const shown: SignInError | null = error ? { message: plainLoginError(error), at: step } : null;
    return { pending, step, error: shown };
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
