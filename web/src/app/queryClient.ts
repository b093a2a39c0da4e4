import { QueryCache, QueryClient } from '@tanstack/react-query';

/** Server state: failures of reads are logged and the data stays as it was (section 8). */
export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: (error) => console.error(error) }),
  defaultOptions: {
    queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false },
    mutations: { retry: 0 },
  },
});
