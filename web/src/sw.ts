/// <reference lib="webworker" />
/**
 * The service worker (issue 25, "installable"): the app's shell, and nothing else, is kept on the
 * device, so the installed portal opens at once and without a network. Built by vite-plugin-pwa
 * (`injectManifest`, vite.config.ts), which fills `self.__WB_MANIFEST` with the build's files.
 *
 * - Precached: index.html, the hashed scripts and style sheets, the icons, the fonts (the build's
 *   own files, fetched once at install; never an answer of the API).
 * - Page navigations: the network first (a new deploy's index.html is what a reload shows), the
 *   precached index.html when the network fails or is slower than a few seconds. Never stored.
 * - Everything else (`/api/*`, files, shared chats, the reply streams) is not handled here at all:
 *   the browser fetches it as if there were no worker, so nothing personal is cached and a failed
 *   request fails as it would without one.
 * - A new worker takes over at once (`skipWaiting`, `clients.claim`): when the version check sees a
 *   new commit it asks for the update, then reloads into the new build (modules/version).
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NetworkOnly } from 'workbox-strategies';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: { url: string; revision: string | null }[] };

/** Paths whose answers are never the shell: the API (files and shared chats included) and the probes. */
const NOT_THE_SHELL = [/^\/api(\/|$)/, /^\/healthz$/, /^\/readyz$/];
/** How long a navigation waits for the network before the stored shell is shown. */
const NETWORK_TIMEOUT_SECONDS = 4;

self.skipWaiting();
clientsClaim();
cleanupOutdatedCaches();

// Registered first, so a navigation (to `/` too) is never answered by the precache's own route.
const online = new NetworkOnly({ networkTimeoutSeconds: NETWORK_TIMEOUT_SECONDS });
registerRoute(
  new NavigationRoute(
    async (options) => {
      try {
        return await online.handle(options);
      } catch {
        return (await matchPrecache('/index.html')) ?? Response.error();
      }
    },
    { denylist: NOT_THE_SHELL },
  ),
);
precacheAndRoute(self.__WB_MANIFEST);
