import type { User } from '@app/contracts/auth';
import { ApiError, setAuthGate, setRequestIdentity } from '../../common/api/http';
import { createStore, useStore } from '../../common/state/createStore';
import { readStorage, removeStorage, STORAGE_KEYS, writeStorage } from '../../common/utils/storage';
import {
  createAnonymousUser,
  fetchCsrfToken,
  fetchMe,
  fetchSessionId,
  logoutOnServer,
  type AppleConfig,
  type FirebaseConfig,
} from '../api/authApi';

/** The auth state of spec section 3. */
export type AuthState = {
  isLoggedIn: boolean;
  isLoading: boolean;
  user: User | null;
  accessToken: string | null;
  csrfToken: string | null;
  userRequestedLogout: boolean;
  lastLoggedInEmail: string | null;
  googleClientId: string | null;
  appleConfig: AppleConfig | null;
  firebaseConfig: FirebaseConfig | null;
  /**
   * Start-up could not reach the server to check the stored token (offline, or the server down):
   * the token is kept and checked again until it answers (still loading meanwhile).
   */
  unreachable: boolean;
};

/** The states of section 4: loading, logged out, anonymous user, registered user. */
export type AuthStatus = 'loading' | 'logged-out' | 'anonymous' | 'registered';

export const authStore = createStore<AuthState>(() => ({
  isLoggedIn: false,
  isLoading: true,
  user: null,
  accessToken: readStorage(STORAGE_KEYS.accessToken),
  csrfToken: null,
  userRequestedLogout: false,
  lastLoggedInEmail: readStorage(STORAGE_KEYS.lastLoggedInEmail),
  googleClientId: null,
  appleConfig: null,
  firebaseConfig: null,
  unreachable: false,
}));

export function authStatusOf(state: Pick<AuthState, 'isLoading' | 'isLoggedIn' | 'user'>): AuthStatus {
  if (state.isLoading) return 'loading';
  if (!state.isLoggedIn || !state.user) return 'logged-out';
  return state.user.is_anon ? 'anonymous' : 'registered';
}

export const useAuthStatus = () => useStore(authStore, authStatusOf);
export const useUser = () => useStore(authStore, (s) => s.user);
export const useAuth = <T>(selector: (state: AuthState) => T) => useStore(authStore, selector);

/** Data calls need a logged-in state and an access token (spec section 5). */
const canCallData = (state: AuthState) => {
  const status = authStatusOf(state);
  return (status === 'anonymous' || status === 'registered') && !!state.accessToken;
};

/**
 * Whom server state is held for (the user id keys every query of theirs) and whether their data
 * calls can be made yet.
 */
export function useDataSession(): { userId: string | null; ready: boolean } {
  const userId = useStore(authStore, (s) => s.user?.user_id ?? null);
  const ready = useStore(authStore, canCallData);
  return { userId, ready };
}

/** What a person is called in the header sent to the server (cut at 100 by the client). */
export function userLabelOf(user: User | null): string | null {
  if (!user) return null;
  return user.email ?? user.name ?? user.phone_number ?? (user.is_anon ? 'guest' : null);
}

type Listener = (user: User) => void;
const loginListeners = new Set<Listener>();
const logoutListeners = new Set<() => void>();

/** Runs after every login (start-up included): insider status and the like. */
export function onLogin(listener: Listener): () => void {
  loginListeners.add(listener);
  return () => loginListeners.delete(listener);
}

export function onLogout(listener: () => void): () => void {
  logoutListeners.add(listener);
  return () => logoutListeners.delete(listener);
}

function rememberUser(token: string, user: User): void {
  writeStorage(STORAGE_KEYS.accessToken, token);
  if (user.email) writeStorage(STORAGE_KEYS.lastLoggedInEmail, user.email);
  authStore.set((s) => ({
    user,
    accessToken: token,
    isLoggedIn: true,
    userRequestedLogout: false,
    unreachable: false,
    lastLoggedInEmail: user.email ?? s.lastLoggedInEmail,
  }));
}

const transient = (error: unknown) => !(error instanceof ApiError) || error.status >= 500;

/** The longest start-up waits between two checks of a stored token while the server cannot be reached. */
export const UNREACHABLE_RETRY_MAX_MS = 30_000;

/**
 * Checks a stored token with GET /auth/me until the server answers: the user, or null once the
 * token is refused (4xx). While it cannot be reached (network, 5xx), the token is kept, the state
 * says so, and it is checked again when the browser is back online or after a growing wait (1 s,
 * 2 s, ... 30 s): a guest opening the app offline or during a deploy must not lose its only key
 * to its conversations, nor be replaced by a new guest. Gives up (null) if a sign-in overtakes it.
 */
async function checkStored(token: string, overtaken: () => boolean): Promise<User | null | 'overtaken'> {
  for (let wait = 1_000; ; wait = Math.min(wait * 2, UNREACHABLE_RETRY_MAX_MS)) {
    try {
      const user = await fetchMe(token);
      authStore.set({ unreachable: false });
      return user;
    } catch (error) {
      if (!transient(error)) {
        authStore.set({ unreachable: false });
        return null;
      }
    }
    if (overtaken()) return 'overtaken';
    authStore.set({ unreachable: true });
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        window.removeEventListener('online', done);
        resolve();
      };
      const timer = setTimeout(done, wait);
      window.addEventListener('online', done);
    });
    if (overtaken()) return 'overtaken';
  }
}

/** Validates a token with GET /auth/me; a transient failure (network, 5xx) is tried once more. */
async function validate(token: string): Promise<User | null> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      return await fetchMe(token);
    } catch (error) {
      if (!transient(error) || attempt === 1) return null;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  return null;
}

async function createGuest(): Promise<{ token: string; user: User } | null> {
  try {
    const result = await createAnonymousUser();
    if (!result.token) throw new Error(result.error ?? 'No token in the answer');
    const user = await validate(result.token);
    return user ? { token: result.token, user } : null;
  } catch (error) {
    console.error('Failed to create an anonymous user', error);
    return null;
  }
}

function afterLogin(user: User): void {
  void ensureCsrfToken().catch((error) => console.error(error));
  void fetchSessionId()
    .then(({ session_id }) => writeStorage(STORAGE_KEYS.userSessionId, session_id, 'session'))
    .catch((error) => console.error('Failed to fetch the session id', error));
  for (const listener of loginListeners) {
    try {
      listener(user);
    } catch (error) {
      console.error(error);
    }
  }
}

let starting: Promise<void> | null = null;
/** Bumped by every sign-in: a start-up that began before one gives way to it. */
let signIns = 0;

/**
 * Whether this page load is completing a sign-in: `/login-success` with a token in its fragment
 * (the phone callback's or Google's redirect). That sign-in has just ended the stored guest's
 * session, so start-up must neither check the guest's token (a 401) nor make a new guest: the page
 * signs the browser in with the new token, or runs start-up itself if it cannot (issue 22.1).
 */
export function completesSignIn(location: Pick<Location, 'pathname' | 'hash'>): boolean {
  return location.pathname === '/login-success' && new URLSearchParams(location.hash.replace(/^#/, '')).has('access_token');
}

/**
 * Start-up (section 4): no stored token creates a guest; a stored token is validated, with the
 * guest as fallback once it is refused (a server that cannot be reached refuses nothing: the check
 * waits for it, see checkStored); if that fails too the state is logged out with no user. With
 * `completingSignIn` it only shows the loading state and leaves the session to that sign-in. A
 * sign-in that starts meanwhile wins: start-up then changes nothing and makes no guest.
 */
export function startAuth(options: { completingSignIn?: boolean } = {}): Promise<void> {
  if (options.completingSignIn) {
    authStore.set({ isLoading: true });
    return Promise.resolve();
  }
  starting ??= (async () => {
    const before = signIns;
    const overtaken = () => signIns !== before;
    authStore.set({ isLoading: true });
    const stored = readStorage(STORAGE_KEYS.accessToken);
    let session: { token: string; user: User } | null = null;
    if (stored) {
      const user = await checkStored(stored, overtaken);
      if (user === 'overtaken' || overtaken()) return;
      if (user) session = { token: stored, user };
    }
    session ??= await createGuest();
    if (overtaken()) return;
    if (session) {
      rememberUser(session.token, session.user);
    } else {
      removeStorage(STORAGE_KEYS.accessToken);
      authStore.set({ user: null, isLoggedIn: false, accessToken: null });
    }
    authStore.set({ isLoading: false });
    if (session) afterLogin(session.user);
  })().finally(() => {
    starting = null;
  });
  return starting;
}

/** A token from a login (phone callback fragment, Google, Apple, Firebase): validate and keep it. */
export async function loginWithToken(token: string): Promise<User> {
  signIns += 1;
  const user = await fetchMe(token);
  rememberUser(token, user);
  authStore.set({ isLoading: false });
  afterLogin(user);
  return user;
}

/** A new guest after an explicit logout ("Continue as a guest"). */
export async function continueAsGuest(): Promise<boolean> {
  const session = await createGuest();
  if (!session) return false;
  rememberUser(session.token, session.user);
  afterLogin(session.user);
  return true;
}

/** Replaces the user with a server answer (onboarding calls answer the user). */
export function setUser(user: User): void {
  authStore.set({ user });
}

export async function ensureCsrfToken(): Promise<string> {
  const existing = authStore.get().csrfToken;
  if (existing) return existing;
  const token = await fetchCsrfToken();
  authStore.set({ csrfToken: token });
  return token;
}

let loggingOut: Promise<void> | null = null;

/** Logout (section 4): the server first, then the token and last e-mail, the user, the flag, the CSRF token. */
export function logout(): Promise<void> {
  loggingOut ??= (async () => {
    try {
      const csrf = await ensureCsrfToken();
      await logoutOnServer(csrf);
    } catch (error) {
      console.error('Failed to log out on the server', error);
    }
    removeStorage(STORAGE_KEYS.accessToken);
    removeStorage(STORAGE_KEYS.lastLoggedInEmail);
    authStore.set({ user: null, isLoggedIn: false, accessToken: null, csrfToken: null, lastLoggedInEmail: null });
    for (const listener of logoutListeners) listener();
  })().finally(() => {
    loggingOut = null;
  });
  return loggingOut;
}

/** The user asked to sign out (the menu item), as opposed to a 401. */
export async function requestLogout(): Promise<void> {
  authStore.set({ userRequestedLogout: true });
  await logout();
}

export function setProviderConfigs(configs: Pick<AuthState, 'googleClientId' | 'appleConfig' | 'firebaseConfig'>): void {
  authStore.set(configs);
}

// Every request carries who is calling; every data call checks the login and logs out on a 401.
setRequestIdentity(() => {
  const { accessToken, user } = authStore.get();
  return { accessToken, userId: user?.user_id ?? null, userLabel: userLabelOf(user) };
});
setAuthGate({
  isAuthenticated: () => {
    const { isLoggedIn, accessToken } = authStore.get();
    return isLoggedIn && !!accessToken;
  },
  onUnauthorized: () => logout(),
});
