import { authStore, type AuthState } from '../modules/auth/state/authStore';
import { guestUser, registeredUser } from './fetchMock';

/**
 * A test's signed-in state, from a fresh auth store: start-up done, Ada Lovelace (registered) with
 * the access token `tok`; `patch` changes any of it (a CSRF token, another user).
 */
export function signedIn(patch: Partial<AuthState> = {}): void {
  authStore.reset();
  authStore.set({ isLoading: false, isLoggedIn: true, accessToken: 'tok', user: registeredUser, ...patch });
}

/** As signedIn, for a guest (an anonymous user). */
export function signedInAsGuest(patch: Partial<AuthState> = {}): void {
  signedIn({ user: guestUser, ...patch });
}
