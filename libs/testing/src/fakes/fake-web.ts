import type { IncomingMessage, ServerResponse } from 'node:http';
import { LocalHttpServer, sendJson } from './http-server';

/** A page the fake web serves: an HTML article by default. */
export interface FakePage {
  title: string;
  /** Paragraphs of the article. */
  paragraphs?: string[];
  /** The exact body (instead of an article built from the paragraphs). */
  body?: string | Buffer;
  contentType?: string;
  status?: number;
  /** Redirects (302) to this URL instead. */
  redirectTo?: string;
  /** Waits this long before answering (`Infinity`: never). */
  delayMs?: number;
}

/** A search result as the fake engines answer it. */
export interface FakeSearchResult {
  title: string;
  url: string;
  snippet: string;
}

/**
 * The outside web for tests: pages (articles with navigation and adverts around them, redirects,
 * huge or slow answers) and two search engines' APIs: SearXNG's JSON API (`GET /search?q=&format=json`)
 * and Brave Search's (`GET /res/v1/web/search?q=`, key in `X-Subscription-Token`). Every request is
 * recorded.
 */
export class FakeWeb {
  private readonly server = new LocalHttpServer((request, response) => this.handle(request, response));
  private readonly pages = new Map<string, FakePage>();
  private results: FakeSearchResult[] = [];
  readonly requests: { path: string; query: URLSearchParams; headers: IncomingMessage['headers'] }[] = [];
  /** The Brave key it accepts. */
  readonly braveKey = 'brave-test-key';

  get url(): string {
    return this.server.url;
  }

  start(): Promise<{ url: string }> {
    return this.server.start();
  }

  stop(): Promise<void> {
    return this.server.stop();
  }

  page(path: string, page: FakePage): this {
    this.pages.set(path, page);
    return this;
  }

  /** What both engines answer to any query. */
  searchResults(results: FakeSearchResult[]): this {
    this.results = results;
    return this;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://fake');
    this.requests.push({ path: url.pathname, query: url.searchParams, headers: request.headers });
    if (url.pathname === '/search') {
      if (url.searchParams.get('format') !== 'json') return sendJson(response, 403, { error: 'format not allowed' });
      return sendJson(response, 200, {
        query: url.searchParams.get('q'),
        number_of_results: this.results.length,
        results: this.results.map((r, i) => ({ title: r.title, url: r.url, content: r.snippet, engine: 'fake', score: 1 / (i + 1) })),
      });
    }
    if (url.pathname === '/res/v1/web/search') {
      if (request.headers['x-subscription-token'] !== this.braveKey) return sendJson(response, 401, { error: 'bad key' });
      return sendJson(response, 200, {
        type: 'search',
        web: { results: this.results.map((r) => ({ title: r.title, url: r.url, description: r.snippet })) },
      });
    }
    const page = this.pages.get(url.pathname);
    if (!page) return sendJson(response, 404, { error: 'no such page' });
    if (page.delayMs) {
      if (!Number.isFinite(page.delayMs)) return; // never answers
      await new Promise((resolve) => setTimeout(resolve, page.delayMs));
    }
    if (page.redirectTo) {
      response.writeHead(302, { location: page.redirectTo });
      response.end();
      return;
    }
    const body = page.body ?? article(page.title, page.paragraphs ?? []);
    response.writeHead(page.status ?? 200, { 'content-type': page.contentType ?? 'text/html; charset=utf-8' });
    response.end(body);
  }
}

/** An article as sites write them: navigation, adverts and a footer around the words. */
function article(title: string, paragraphs: string[]): string {
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return `<!doctype html><html><head><title>${escape(title)}</title><script>trackEverything()</script></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></nav>
<div class="advert">Buy the new phone now! Limited offer!</div>
<article><h1>${escape(title)}</h1>${paragraphs.map((p) => `<p>${escape(p)}</p>`).join('\n')}</article>
<footer>Copyright the fake web. Cookie settings. Terms.</footer></body></html>`;
}
