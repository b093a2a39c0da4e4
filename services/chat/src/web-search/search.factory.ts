import { searchEngineOf, type ChatConfig } from '../config';
import { BraveSearchProvider } from './brave.provider';
import type { SearchProvider } from './search-provider';
import { SearxngProvider } from './searxng.provider';

/** The configured search engine, or null (web search off). A choice without its URL or key stops the boot with a clear message. */
export function createSearchProvider(config: ChatConfig): SearchProvider | null {
  if (config.WEB_SEARCH_PROVIDER === 'searxng' && !config.SEARXNG_URL) throw new Error('WEB_SEARCH_PROVIDER=searxng needs SEARXNG_URL');
  if (config.WEB_SEARCH_PROVIDER === 'brave' && !config.BRAVE_SEARCH_API_KEY)
    throw new Error('WEB_SEARCH_PROVIDER=brave needs BRAVE_SEARCH_API_KEY');
  switch (searchEngineOf(config)) {
    case 'searxng':
      return new SearxngProvider(config.SEARXNG_URL!);
    case 'brave':
      return new BraveSearchProvider(config.BRAVE_SEARCH_API_KEY!, config.BRAVE_SEARCH_URL);
    default:
      return null;
  }
}
