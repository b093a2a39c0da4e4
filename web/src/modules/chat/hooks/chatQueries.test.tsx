import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { listenForWindowFocus } from '../../../app/queryClient';
import { json, mockFetch, registeredUser } from '../../../test/fetchMock';
import { authStore } from '../../auth/state/authStore';
import { useConversations } from './chatQueries';

describe('the conversation list', () => {
  beforeEach(() => {
    authStore.reset();
    authStore.set({ isLoading: false, isLoggedIn: true, accessToken: 't', user: registeredUser });
  });

  it('is fetched again when the window is focused, though fetched seconds ago (a second tab is not stale)', async () => {
    listenForWindowFocus();
    let served = 0;
    const api = mockFetch({
      'GET /api/v1/chats/': () =>
        json(200, [
          {
            chat_id: `c${++served}`,
            conversation_title: null,
            last_message_timestamp: null,
            last_active_message_id: null,
            is_commercial: false,
            created_at: '',
          },
        ]),
    });
    // The app's defaults: data is fresh for 30 s and other queries do not refetch on focus.
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry: false, refetchOnWindowFocus: false } } });
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    const { result } = renderHook(() => useConversations(), { wrapper });
    await waitFor(() => expect(result.current.data?.[0].chat_id).toBe('c1'));
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await waitFor(() => expect(result.current.data?.[0].chat_id).toBe('c2'));
    act(() => {
      document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    });
    await waitFor(() => expect(result.current.data?.[0].chat_id).toBe('c3'));
    expect(api.called('GET /api/v1/chats/')).toHaveLength(3);
  });
});
