import type { SearchHit } from '@app/contracts/chat';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDataSession } from '../../auth/state/authStore';
import { useDebouncedValue } from '../../common/hooks/useDebouncedValue';
import { searchConversations } from '../api/searchApi';

/** How long typing must pause before a search is sent. */
export const SEARCH_DEBOUNCE_MS = 200;

export const searchKey = (userId: string | null, q: string) => ['search', userId, q] as const;

export type ConversationSearch = {
  /** The query the results answer ('' before any). */
  q: string;
  results: SearchHit[];
  /** Typed text not answered yet (debouncing or in flight). */
  pending: boolean;
  failed: boolean;
};

/**
 * Searches the caller's conversations as they type: debounced, and each search that a newer one
 * replaces is cancelled (TanStack Query aborts its signal once no one observes its key). Results are
 * never cached for long: a new message may match.
 */
export function useConversationSearch(typed: string): ConversationSearch {
  const { userId, ready } = useDataSession();
  const wanted = typed.trim();
  const q = useDebouncedValue(wanted, SEARCH_DEBOUNCE_MS);
  const query = useQuery({
    queryKey: searchKey(userId, q),
    queryFn: ({ signal }) => searchConversations(q, signal),
    enabled: ready && q.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 5_000,
    gcTime: 30_000,
    retry: false,
  });
  const answered = query.data && !query.isPlaceholderData ? query.data.q : '';
  return {
    q: wanted ? answered : '',
    results: wanted ? (query.data?.results ?? []) : [],
    pending: wanted.length > 0 && (wanted !== q || query.isFetching),
    failed: query.isError,
  };
}

/** What a result's link carries in the history's state: the query, whose words the opened message marks. */
export type SearchLinkState = { searchQuery: string };

/** Where a result leads: the message (scrolled to and marked), or the conversation for a title. */
export const hitPath = (hit: SearchHit) =>
  hit.message_id ? `/chat/${hit.chat_id}#message-${encodeURIComponent(hit.message_id)}` : `/chat/${hit.chat_id}`;
