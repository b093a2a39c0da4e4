/**
 * The spec's storage keys, exactly as named (section 9). Keys the spec leaves unnamed (the version
 * hash, the first-time modal flag, the dot indicator) are named here once.
 */
export const STORAGE_KEYS = {
  accessToken: 'access_token',
  lastLoggedInEmail: 'last_logged_in_email',
  /** Session storage. */
  userSessionId: 'user_session_id',
  sidebarOpen: 'sidebarOpen',
  isDarkMode: 'isDarkMode',
  versionHash: 'versionHash',
  firstTimeModal: 'firstTimeModalShown',
  firstTimeDot: 'firstTimeDotHidden',
} as const;

type Area = 'local' | 'session';

function area(which: Area): Storage | null {
  try {
    return which === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return null; // storage disabled (private mode, sandboxed frame)
  }
}

export function readStorage(key: string, which: Area = 'local'): string | null {
  try {
    return area(which)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeStorage(key: string, value: string, which: Area = 'local'): void {
  try {
    area(which)?.setItem(key, value);
  } catch {
    // full or disabled: the value lives for this page only
  }
}

export function removeStorage(key: string, which: Area = 'local'): void {
  try {
    area(which)?.removeItem(key);
  } catch {
    // nothing to do
  }
}
