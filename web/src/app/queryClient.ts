import { focusManager, QueryCache, QueryClient, type QueryClientConfig } from '@tanstack/react-query';

/**
 * "Window focus" for the queries that refetch on it: the tab shown again (TanStack's default) and
 * also the window focused again, as when two windows sit side by side.
 */
export function listenForWindowFocus(): void {
  focusManager.setEventListener((onFocus) => {
    const listener = () => onFocus();
    window.addEventListener('visibilitychange', listener, false);
    window.addEventListener('focus', listener, false);
    return () => {
      window.removeEventListener('visibilitychange', listener);
      window.removeEventListener('focus', listener);
    };
  });
}

type Defaults = NonNullable<QueryClientConfig['defaultOptions']>;

/**
 * Server state: failures of reads are logged and the data stays as it was (section 8). Tests
 * build theirs here too, with their own defaults on top (no retries, no garbage-collection timers).
 */
export function createQueryClient(overrides: Defaults = {}): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error) => console.error(error) }),
    defaultOptions: {
      queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false, ...overrides.queries },
      mutations: { retry: 0, ...overrides.mutations },
    },
  });
}

export const queryClient = createQueryClient();
