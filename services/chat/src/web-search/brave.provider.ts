import { SearchFailed, type SearchProvider, type SearchResult } from './search-provider';
import { resultsOf } from './searxng.provider';

/** Brave Search's web search API (a hosted engine with its own index; a key from the operator). */
export class BraveSearchProvider implements SearchProvider {
  readonly name = 'brave';

  constructor(
    private readonly apiKey: string,
    private readonly baseUrl = 'https://api.search.brave.com',
  ) {}

  async search(query: string, options: { limit: number; signal: AbortSignal }): Promise<SearchResult[]> {
    const url = new URL('/res/v1/web/search', this.baseUrl);
    url.search = new URLSearchParams({ q: query, count: String(Math.min(20, options.limit)), safesearch: 'moderate' }).toString();
    let response: Response;
    try {
      response = await fetch(url, { signal: options.signal, headers: { accept: 'application/json', 'x-subscription-token': this.apiKey } });
    } catch (error) {
      throw new SearchFailed('The search engine could not be reached.', { cause: error });
    }
    if (!response.ok) throw new SearchFailed(`The search engine answered ${response.status}.`);
    const body = (await response.json().catch(() => null)) as { web?: { results?: unknown } } | null;
    const raw = body?.web?.results;
    if (!Array.isArray(raw)) return [];
    return resultsOf(raw, options.limit, (r) => ({ title: r.title, url: r.url, snippet: r.description }));
  }
}
