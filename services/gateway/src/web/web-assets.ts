import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const PLACEHOLDER = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Assistant</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; padding: 0 1rem; color: #222">
<h1>Assistant</h1>
<p>The server is running. The web client has not been built: run <code>npm run build</code>, then reload.</p>
<p>API description: <a href="/api/docs">/api/docs</a></p>
</body></html>`;

/** The name of the page's meta element that says which build (commit) served it. */
export const COMMIT_META = 'assistant-commit';

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The client's `index.html` with the commit that serves it (`<meta name="assistant-commit">`), so
 * that a page knows which build it is: one whose shell came from the service worker's store (a
 * slow or absent network) can tell it is not the server's build, and update (modules/version).
 */
export function withCommit(html: string, commit: string | undefined): string {
  if (!commit) return html;
  return html.replace(/<head(\s[^>]*)?>/i, (head) => `${head}\n    <meta name="${COMMIT_META}" content="${escapeAttribute(commit)}" />`);
}

/**
 * Serves the built web client: hashed assets with a long cache, and `index.html` (never cached,
 * with the serving commit in it) for every other page path, so that client-side routes survive a
 * reload; `/index.html` itself (what the service worker keeps) is the same page.
 */
export class WebAssets {
  private readonly indexHtml: string | undefined;

  constructor(
    private readonly distDir: string,
    commit?: string,
  ) {
    const index = join(distDir, 'index.html');
    this.indexHtml = existsSync(index) ? withCommit(readFileSync(index, 'utf8'), commit) : undefined;
  }

  get built(): boolean {
    return this.indexHtml !== undefined;
  }

  async register(fastify: FastifyInstance): Promise<void> {
    if (!this.built) return;
    const { default: fastifyStatic } = await import('@fastify/static');
    await fastify.register(fastifyStatic, {
      root: this.distDir,
      prefix: '/',
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each asset (scripts/build.mjs): sent as they are to a
      // browser that accepts them, with `Vary: Accept-Encoding`; the plain file otherwise.
      preCompressed: true,
      // index.html (and what the build compressed of it) is the page below, with the commit in it.
      globIgnore: ['index.html', 'index.html.*'],
      setHeaders: (reply, path) => {
        reply.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    fastify.get('/index.html', (_request, reply) => this.sendIndex(reply));
  }

  /** `/index.html`: the page, as a navigation gets it. */
  private sendIndex(reply: FastifyReply): void {
    void reply
      .status(200)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(this.indexHtml ?? PLACEHOLDER);
  }

  /** Answers a page navigation that matched no route with the client's `index.html`. */
  serveApp(request: FastifyRequest, reply: FastifyReply): boolean {
    const path = request.url.split('?')[0];
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !path.startsWith('/api/') &&
      path !== '/api' &&
      (request.headers.accept ?? '').includes('text/html');
    if (!isPage) return false;
    this.sendIndex(reply);
    return true;
  }
}
