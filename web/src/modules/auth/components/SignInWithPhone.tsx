import { Field } from '../../../ui/Field';
import { Spinner } from '../../../ui/Spinner';
import type { PhoneSignInState } from '../hooks/usePhoneSignIn';
import { DevSmsInboxNote } from './DevSmsInboxNote';

type SignInWithPhoneProps = { phone: PhoneSignInState; busy: boolean; fieldError: string | null };

/** The phone sign-in: the number step (a code is texted), then the code step. */
export function SignInWithPhone({ phone, busy, fieldError }: SignInWithPhoneProps) {
  if (phone.step === 'code') return <PhoneCodeStep phone={phone} busy={busy} fieldError={fieldError} />;
  return (
    <form className="form" onSubmit={phone.sendCode}>
      <Field label="Mobile number" hint="Include the country code. We text you a code; message rates may apply." problem={fieldError}>
        {(control) => (
          <input
            {...control}
            ref={phone.phoneInput}
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            placeholder="+1 415 555 0100"
            value={phone.phone}
            onChange={(event) => phone.setPhone(event.target.value)}
            required
            minLength={4}
            maxLength={32}
          />
        )}
      </Field>
      <button type="submit" className="button button--primary button--block" disabled={busy || phone.phone.trim().length < 4}>
        {busy ? <Spinner label="Sending the code" /> : phone.askingAgain ? 'Text me a new code' : 'Text me a code'}
      </button>
    </form>
  );
}

function PhoneCodeStep({ phone, busy, fieldError }: SignInWithPhoneProps) {
  return (
    <form className="form" onSubmit={phone.verify}>
      {phone.info && (
        <p className="notice notice--info" role="status">
          {phone.info}
        </p>
      )}
      <Field label="Code" problem={fieldError}>
        {(control) => (
          <input
            {...control}
            ref={phone.codeInput}
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            placeholder="123456"
            value={phone.code}
            onChange={(event) => phone.setCode(event.target.value.replace(/\D/g, '').slice(0, 12))}
            required
          />
        )}
      </Field>
      <button type="submit" className="button button--primary button--block" disabled={busy || phone.code.length < 4}>
        {busy ? <Spinner label="Signing in" /> : 'Sign in'}
      </button>
      <div className="login__row">
        <button type="button" className="link-button" onClick={phone.changeNumber}>
          Use a different number
        </button>
        <button type="button" className="link-button" onClick={() => phone.sendCode()} disabled={busy}>
          Send a new code
        </button>
      </div>
      {phone.codeNumber && <DevSmsInboxNote phoneNumber={phone.codeNumber} />}
    </form>
  );
}
