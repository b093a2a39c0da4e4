import { lazy, useState, type ComponentType, type JSX } from 'react';

/**
 * A component whose code is loaded on demand (`preload`, or its first render), which renders at
 * once when that code is already here. React's `lazy` alone suspends on its first render even then
 * (its loader's promise is only asked for at that moment), and React holds a Suspense boundary's
 * content back for up to 300 ms after its fallback was shown: a conversation's messages and their
 * markdown, both preloaded as it opens, waited for that twice. Each instance keeps the way it
 * started (the code here, or `lazy` under the caller's Suspense), so it is never mounted again.
 */
export function preloadable<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const preload = (): Promise<ComponentType<P>> =>
    (loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        loading = null; // a failed chunk (a deploy, the network) is asked for again next time
        throw error;
      },
    ));
  const Lazy = lazy(async () => ({ default: await preload() }));
  function Preloadable(props: P): JSX.Element {
    const [Here] = useState(() => loaded);
    return Here ? <Here {...props} /> : <Lazy {...props} />;
  }
  return { Component: Preloadable, preload, isLoaded: () => loaded !== null };
}
