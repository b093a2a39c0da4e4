import type { SearchResults } from '@app/contracts/chat';
import { API } from '@app/contracts/gateway';
import { readCall } from '../../common/api/dataCall';
import { routeCall } from '../../common/api/http';

export const FAILED_SEARCH = 'Failed to search conversations';

/** The caller's conversations matching `q`; `signal` cancels a search that a newer one replaced. */
export const searchConversations = (q: string, signal?: AbortSignal): Promise<SearchResults> =>
  readCall(routeCall(API.chat.search, { query: { q, limit: 20 } }, { signal }), { q, results: [] }, FAILED_SEARCH);
