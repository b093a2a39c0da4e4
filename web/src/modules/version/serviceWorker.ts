/**
 * The service worker (web/src/sw.ts, built by vite-plugin-pwa): registered once the page has
 * loaded (it must not compete with the page's own first requests), in a production build only.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = () =>
    navigator.serviceWorker
      .register('/sw.js', { scope: '/' })
      .catch((error: unknown) => console.error('Service worker not registered', error));
  if (document.readyState === 'complete') void register();
  else window.addEventListener('load', () => void register(), { once: true });
}

/** How long a new build's worker is given to install (its shell fetched) before the page reloads anyway. */
const UPDATE_WAIT_MS = 10_000;

/**
 * A new build is out (the version check saw a new commit): the worker is asked to update, and the
 * new one (which takes over at once: `skipWaiting`, `clients.claim`) is waited for, so the reload
 * that follows is served by it. Without a worker, or when the update fails or takes too long, the
 * page reloads all the same: its navigations go to the network first, so it shows the new build.
 */
export async function updateServiceWorker(waitMs: number = UPDATE_WAIT_MS): Promise<void> {
  if (!('serviceWorker' in navigator)) return;
  try {
    const registration = await navigator.serviceWorker.getRegistration();
    if (!registration) return;
    // Bounded too: the reload must come, whatever the worker's update does.
    let expired: ReturnType<typeof setTimeout> | undefined;
    const updated = await Promise.race([
      registration.update().then(() => true),
      new Promise<false>((resolve) => (expired = setTimeout(() => resolve(false), waitMs))),
    ]);
    clearTimeout(expired);
    if (!updated) return;
    const next = registration.installing ?? registration.waiting;
    if (!next) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, waitMs);
      const done = () => {
        if (next.state !== 'activated' && next.state !== 'redundant') return;
        clearTimeout(timer);
        resolve();
      };
      next.addEventListener('statechange', done);
      done();
    });
  } catch (error) {
    console.error('Service worker update failed', error);
  }
}
