/** One result of a web search. */
export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

/** A web search engine behind one interface (SearXNG's JSON API, or a hosted API an operator chose). */
export interface SearchProvider {
  /** Its name for the logs and the README. */
  readonly name: string;
  search(query: string, options: { limit: number; signal: AbortSignal }): Promise<SearchResult[]>;
}

/** The configured search provider, or null: web search is off. */
export const SEARCH_PROVIDER = Symbol('SEARCH_PROVIDER');

/** The search engine failed: its words go back to the model as the tool's error. */
export class SearchFailed extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SearchFailed';
  }
}

/** A result's text, cut and without markup (engines send HTML entities and highlights). */
export function plain(text: unknown, max: number): string {
  if (typeof text !== 'string') return '';
  const clean = text
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39);/g, (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e] ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

/** Only http(s) links are kept from an engine's answer. */
export function httpUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}
