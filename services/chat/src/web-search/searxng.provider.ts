import { httpUrl, plain, SearchFailed, type SearchProvider, type SearchResult } from './search-provider';

/**
 * SearXNG's JSON API (`GET /search?q=...&format=json`; the instance must allow the json format in
 * its settings.yml `search.formats`). Self-hosted: its URL is the operator's, so it may be private.
 */
export class SearxngProvider implements SearchProvider {
  readonly name = 'searxng';

  constructor(private readonly baseUrl: string) {}

  async search(query: string, options: { limit: number; signal: AbortSignal }): Promise<SearchResult[]> {
    const url = new URL('search', this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`);
    url.search = new URLSearchParams({ q: query, format: 'json', safesearch: '1' }).toString();
    let response: Response;
    try {
      response = await fetch(url, { signal: options.signal, headers: { accept: 'application/json' } });
    } catch (error) {
      throw new SearchFailed('The search engine could not be reached.', { cause: error });
    }
    if (!response.ok) throw new SearchFailed(`The search engine answered ${response.status}.`);
    const body = (await response.json().catch(() => null)) as { results?: unknown } | null;
    if (!body || !Array.isArray(body.results)) throw new SearchFailed('The search engine sent something unreadable.');
    return resultsOf(body.results, options.limit, (r) => ({ title: r.title, url: r.url, snippet: r.content }));
  }
}

/** The engine's results as SearchResults: http(s) links only, no duplicates, at most `limit`. */
export function resultsOf(raw: unknown[], limit: number, pick: (r: Record<string, unknown>) => Record<string, unknown>): SearchResult[] {
  const seen = new Set<string>();
  const results: SearchResult[] = [];
  for (const item of raw) {
    if (!item || typeof item !== 'object') continue;
    const fields = pick(item as Record<string, unknown>);
    const url = httpUrl(fields.url);
    if (!url || seen.has(url)) continue;
    seen.add(url);
    results.push({ title: plain(fields.title, 200) || url, url, snippet: plain(fields.snippet, 400) });
    if (results.length >= limit) break;
  }
  return results;
}
