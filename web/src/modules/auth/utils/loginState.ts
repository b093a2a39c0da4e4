import { readStorage, removeStorage, writeStorage } from '../../common/utils/storage';

/**
 * The nonce that binds a sign-in ending on /login-success to the browser tab that started it. The
 * server hands it back in the fragment next to the token; a link crafted elsewhere cannot carry it,
 * so it cannot sign this browser into someone else's account (login CSRF).
 */
const STATE_KEY = 'login_state';

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A fresh nonce (24 random bytes, 32 base64url characters), kept in session storage for this tab. */
export function startLoginState(): string {
  const state = base64url(crypto.getRandomValues(new Uint8Array(24)));
  writeStorage(STATE_KEY, state, 'session');
  return state;
}

/** Whether a returned nonce answers the sign-in this tab started; a match is used up. */
export function acceptLoginState(returned: string | null): boolean {
  const expected = readStorage(STATE_KEY, 'session');
  if (!expected || !returned || returned !== expected) return false;
  removeStorage(STATE_KEY, 'session');
  return true;
}
