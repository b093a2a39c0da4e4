import { useEffect } from 'react';
import { loginWithApple, type LoginContext } from '../api/authApi';
import { ensureCsrfToken } from '../state/authStore';
import { readAppleReturn } from '../utils/apple';
import type { SignIn } from './useSignIn';

/** Back from Apple (a redirect with the answer in the fragment): the fragment is cleared and the sign-in finished. */
export function useAppleReturn(signIn: SignIn, context: LoginContext) {
  useEffect(() => {
    const back = readAppleReturn(window.location.hash);
    if (!back) return;
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
    void signIn.run(async () =>
      signIn.finish(
        await loginWithApple(
          { code: back.code, id_token: back.id_token, state: back.state, nonce: back.nonce, use_app_client_id: false },
          await ensureCsrfToken(),
          context,
        ),
      ),
    );
  }, []);
}
