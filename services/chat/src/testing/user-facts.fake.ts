import type { UserFactsCache } from '../replies/user-facts.cache';

/** No user facts kept: every lookup reads (for unit tests of what uses the cache, not of the cache). */
export const noUserFacts: Pick<UserFactsCache, 'get' | 'lookup' | 'changed'> = {
  get: () => undefined,
  lookup: (_userId, _fact, load) => load(),
  changed: () => undefined,
};
