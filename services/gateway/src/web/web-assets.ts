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

/**
 * Serves the built web client: hashed assets with a long cache, and `index.html` (never cached)
 * for every other page path, so that client-side routes survive a reload.
 */
export class WebAssets {
  private readonly indexHtml: string | undefined;

  constructor(private readonly distDir: string) {
    const index = join(distDir, 'index.html');
    this.indexHtml = existsSync(index) ? readFileSync(index, 'utf8') : undefined;
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
      setHeaders: (reply, path) => {
        reply.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
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
    void reply
      .status(200)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(this.indexHtml ?? PLACEHOLDER);
    return true;
  }
}
