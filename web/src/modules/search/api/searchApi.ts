import type { SearchResults } from '@app/contracts/chat';
import { API } from '@app/contracts/gateway';
import { call } from '../../common/api/http';

export const FAILED_SEARCH = 'Failed to search conversations';

/** The caller's conversations matching `q`; `signal` cancels a search that a newer one replaced. */
export const searchConversations = (q: string, signal?: AbortSignal): Promise<SearchResults> =>
  call(API.chat.search, { query: { q, limit: 20 } }, { signal, orElse: { q, results: [] }, failure: FAILED_SEARCH });
