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

/**
 * The version check (section 4): the commit is polled every 60 s; when it differs from the stored
 * value the new one is stored and the page reloads. The first answer of a page load is stored as
 * it is (the page was just loaded, so it is already that build). Failures are logged and ignored.
 * Before the reload the service worker updates to the new build's (modules/version/serviceWorker.ts),
 * so the reload shows the new build, never the old stored shell.
 */
export function startVersionCheck(
  reload: () => void = () => void updateServiceWorker().then(() => window.location.reload()),
  intervalMs: number = PRODUCT_CONSTANTS.versionPollMs,
): () => void {
  let loadedWith: string | null = null;
  let stopped = false;
  const check = async (first: boolean) => {
    try {
      const commit = await fetchCommit();
      if (stopped) return;
      const stored = readStorage(STORAGE_KEYS.versionHash);
      if (first) {
        loadedWith = commit;
        if (stored !== commit) writeStorage(STORAGE_KEYS.versionHash, commit);
        return;
      }
      if (commit !== stored || (loadedWith !== null && commit !== loadedWith)) {
        writeStorage(STORAGE_KEYS.versionHash, commit);
        reload();
      }
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
