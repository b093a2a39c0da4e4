import { useState } from 'react';
import { Dialog } from '../../../ui/Dialog';
import { Field } from '../../../ui/Field';
import { loginWithFirebase, type FirebaseConfig, type LoginContext } from '../api/authApi';
import type { SignIn } from '../hooks/useSignIn';
import { ensureCsrfToken } from '../state/authStore';
import { firebaseEmailSignIn } from '../utils/firebase';

type SignInWithEmailProps = { config: FirebaseConfig; signIn: SignIn; context: LoginContext; lastEmail: string | null };

/** E-mail and password (Firebase), in a dialog opened by the provider button. */
export function SignInWithEmail({ config, signIn, context, lastEmail }: SignInWithEmailProps) {
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState(lastEmail ?? '');
  const [password, setPassword] = useState('');
  return (
    <>
      <button type="button" className="button button--provider" onClick={() => setOpen(true)} disabled={signIn.busy}>
        <span className="provider-mark" aria-hidden="true">
          @
        </span>{' '}
        Continue with e-mail
      </button>
      <Dialog open={open} title="Sign in with e-mail" onClose={() => setOpen(false)}>
        <form
          className="form"
          onSubmit={(event) => {
            event.preventDefault();
            setOpen(false);
            void signIn.run(async () =>
              signIn.finish(
                await loginWithFirebase(await firebaseEmailSignIn(config, email, password), 'password', await ensureCsrfToken(), context),
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
    </>
  );
}
