import type { QueryClient } from '@tanstack/react-query';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { createQueryClient } from '../app/queryClient';

/** The app's query client for one test: no retries and no garbage-collection timers. */
export function testQueryClient(): QueryClient {
  return createQueryClient({ queries: { retry: false, gcTime: Infinity }, mutations: { gcTime: Infinity } });
}

/** A wrapper for render and renderHook that provides the client. */
export function withQueryClient(client: QueryClient = testQueryClient()) {
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  return { client, wrapper };
}
