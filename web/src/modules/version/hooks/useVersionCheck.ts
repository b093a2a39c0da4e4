import { PRODUCT_CONSTANTS } from '@app/contracts/common/constants';
import { useEffect } from 'react';
import { API } from '@app/contracts/gateway';
import { call } from '../../common/api/http';
import { readStorage, STORAGE_KEYS, writeStorage } from '../../common/utils/storage';
import { updateServiceWorker } from '../serviceWorker';

export async function fetchCommit(): Promise<string> {
  const { commit } = await call(API.version.commit, {}, { public: true, bearer: false, cache: 'no-store' });
  return commit;
}

/** The commit of the build this page is (the server writes it into index.html); null without one (a dev server). */
export const ownCommit = (): string | null => document.querySelector<HTMLMetaElement>('meta[name="assistant-commit"]')?.content || null;

/** When this tab last reloaded for a new build (sessionStorage): a page still not that build waits this long to try again. */
const RELOADED_AT = 'versionReloadedAt';
export const VERSION_RELOAD_RETRY_MS = 30_000;

const reloadedLately = () => Date.now() - Number(sessionStorage.getItem(RELOADED_AT) ?? 0) < VERSION_RELOAD_RETRY_MS;

/**
 * The version check (section 4): the commit is polled every 60 s; when it differs from the stored
 * value the new one is stored and the page reloads. The first answer of a page load is stored as
 * it is: the page was just loaded, so it is already that build, unless the page says otherwise
 * (the commit the server wrote into it, `own`): a shell the service worker served from its store
 * (the network was slow or gone) may be an older build, which reloads (again at each check, and at
 * once after a load at most every 30 s) until it is the server's. Failures are logged and ignored.
 * Before the reload the service worker updates to the new build's (modules/version/serviceWorker.ts),
 * so the reload shows the new build, never the old stored shell.
 */
export function startVersionCheck(
  reload: () => void = () => void updateServiceWorker().then(() => window.location.reload()),
  intervalMs: number = PRODUCT_CONSTANTS.versionPollMs,
  own: string | null = ownCommit(),
): () => void {
  let loadedWith: string | null = own;
  let stopped = false;
  const reloadFor = (commit: string) => {
    writeStorage(STORAGE_KEYS.versionHash, commit);
    sessionStorage.setItem(RELOADED_AT, String(Date.now()));
    reload();
  };
  const check = async (first: boolean) => {
    try {
      const commit = await fetchCommit();
      if (stopped) return;
      const stored = readStorage(STORAGE_KEYS.versionHash);
      if (first) {
        loadedWith ??= commit;
        if (commit !== loadedWith && !reloadedLately()) reloadFor(commit);
        else if (stored !== commit) writeStorage(STORAGE_KEYS.versionHash, commit);
        return;
      }
      if (commit !== stored || (loadedWith !== null && commit !== loadedWith)) reloadFor(commit);
    } catch (error) {
      console.error('Version check failed', error);
    }
  };
  void check(true);
  const timer = setInterval(() => void check(false), intervalMs);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}

export function useVersionCheck(): void {
  useEffect(() => startVersionCheck(), []);
}
