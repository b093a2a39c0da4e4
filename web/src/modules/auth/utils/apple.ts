import type { AppleConfig } from '../api/authApi';
import { randomId } from '../../common/utils/ids';
import { readStorage, removeStorage, writeStorage } from '../../common/utils/storage';

/**
 * Sign in with Apple by redirect: Apple sends the browser back to the configured redirect URI (the
 * /login page) with the code and ID token in the fragment; state and nonce are checked on return.
 */
export function appleAuthorizeUrl(config: AppleConfig): string {
  const state = randomId();
  const nonce = randomId();
  writeStorage('apple_state', state, 'session');
  writeStorage('apple_nonce', nonce, 'session');
  const query = new URLSearchParams({
    client_id: config.client_id,
    redirect_uri: config.redirect_uri,
    response_type: 'code id_token',
    response_mode: 'fragment',
    state,
    nonce,
  });
  return `https://appleid.apple.com/auth/authorize?${query}`;
}

export type AppleReturn = { code: string | null; id_token: string; state: string; nonce: string | null };

/** The answer in the fragment, when it is Apple's and its state is ours. */
export function readAppleReturn(hash: string): AppleReturn | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const idToken = params.get('id_token');
  const state = params.get('state');
  if (!idToken || !state) return null;
  const expected = readStorage('apple_state', 'session');
  const nonce = readStorage('apple_nonce', 'session');
  removeStorage('apple_state', 'session');
  removeStorage('apple_nonce', 'session');
  if (state !== expected) return null;
  return { code: params.get('code'), id_token: idToken, state, nonce };
}
