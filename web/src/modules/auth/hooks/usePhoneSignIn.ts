import { stripPhoneFormatting } from '@app/contracts/sms';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { leavePage } from '../../common/utils/leavePage';
import { phoneCallbackUrl, sendPhoneCode, type LoginContext } from '../api/authApi';
import { ensureCsrfToken } from '../state/authStore';
import { rememberNext, rememberPhoneLogin, type PendingPhoneLogin } from '../utils/loginContext';
import { startLoginState } from '../utils/loginState';
import type { SignIn, SignInStep } from './useSignIn';

/**
 * The phone sign-in's two steps: the number (a code is texted to it), then the code, checked by a
 * full page navigation to the server's callback (it answers with a redirect to /login-success or
 * back to the form). The number and "a code was sent" survive that navigation (session storage).
 */
export function usePhoneSignIn(
  signIn: SignIn,
  {
    context,
    next,
    returned,
  }: { context: LoginContext; next: string | null; returned: { pending: PendingPhoneLogin | null; step: SignInStep } },
) {
  const [pending, setPending] = useState<PendingPhoneLogin | null>(returned.pending);
  const [step, setStep] = useState<SignInStep>(returned.step);
  const [phone, setPhone] = useState(returned.pending?.phoneNumber ?? '');
  const [code, setCode] = useState('');
  const [info, setInfo] = useState<string | null>(
    returned.step === 'code' ? `Enter the code we texted to ${returned.pending?.phoneNumber}.` : null,
  );
  const phoneInput = useRef<HTMLInputElement>(null);
  const codeInput = useRef<HTMLInputElement>(null);

  // The field asked for by the last render (an error under it, or a step just shown) takes the focus.
  useEffect(() => {
    const target = signIn.focusNext.current;
    if (!target) return;
    signIn.focusNext.current = null;
    (target === 'code' ? codeInput : phoneInput).current?.focus();
  });

  /** Texts a code to the number typed (phone step) or to the number of the code step ("Send a new code"). */
  const sendCode = (event?: FormEvent) => {
    event?.preventDefault();
    const phoneNumber = step === 'code' && pending ? pending.phoneNumber : stripPhoneFormatting(phone);
    void signIn.run(async () => {
      const csrf = await ensureCsrfToken();
      const sent = await sendPhoneCode(phoneNumber, csrf, context);
      const remembered = { phoneNumber, campaignName: context.campaignName ?? null, codeSent: true };
      rememberPhoneLogin(remembered);
      setPending(remembered);
      setStep('code');
      setCode('');
      setInfo(`We texted a 6-digit code to ${phoneNumber}. It works for ${Math.round(sent.expires_in_seconds / 60)} minutes.`);
      signIn.focusNext.current = 'code';
    }, step);
  };

  const verify = (event: FormEvent) => {
    event.preventDefault();
    if (!pending) return;
    rememberNext(next);
    signIn.setBusy(true);
    // A full page navigation: the server answers with a redirect to /login-success or back here.
    const flow = { ...context, campaignName: context.campaignName ?? pending.campaignName };
    leavePage(phoneCallbackUrl(pending.phoneNumber, code.trim(), startLoginState(), flow));
  };

  const changeNumber = () => {
    if (pending) rememberPhoneLogin({ ...pending, codeSent: false });
    setStep('phone');
    setCode('');
    signIn.setError(null);
    setInfo(null);
    signIn.focusNext.current = 'phone';
  };

  return {
    step,
    phone,
    setPhone,
    code,
    setCode,
    info,
    phoneInput,
    codeInput,
    sendCode,
    verify,
    changeNumber,
    /** The number the code step is for (null on the number step). */
    codeNumber: step === 'code' ? (pending?.phoneNumber ?? null) : null,
    /** The number typed is the one a code was already asked for. */
    askingAgain: !!pending && stripPhoneFormatting(phone) === pending.phoneNumber,
  };
}

export type PhoneSignInState = ReturnType<typeof usePhoneSignIn>;
