import Fastify, { type FastifyInstance } from 'fastify';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { WebAssets } from './web-assets';

describe('WebAssets', () => {
  const script = 'export const answer = 42;\n'.repeat(200);
  let dist: string;
  let fastify: FastifyInstance;
  let web: WebAssets;

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'web-assets-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><html><head lang="en"><title>Assistant</title></head></html>');
    writeFileSync(join(dist, 'index.html.br'), brotliCompressSync('<!doctype html><title>stale</title>'));
    writeFileSync(join(dist, 'assets/app-1234.js'), script);
    writeFileSync(join(dist, 'assets/app-1234.js.br'), brotliCompressSync(script));
    writeFileSync(join(dist, 'assets/app-1234.js.gz'), gzipSync(script));
    writeFileSync(join(dist, 'assets/plain-1234.js'), script);
    writeFileSync(join(dist, 'sw.js'), 'self.skipWaiting();');
    writeFileSync(join(dist, 'manifest.webmanifest'), '{"name":"Assistant"}');
    fastify = Fastify();
    web = new WebAssets(dist, 'c0ffee"<x');
    await web.register(fastify);
    fastify.get('/chat', (request, reply) => void web.serveApp(request, reply));
    await fastify.ready();
  });

  afterAll(async () => {
    await fastify.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (url: string, encoding?: string) =>
    fastify.inject({ method: 'GET', url, headers: encoding === undefined ? {} : { 'accept-encoding': encoding } });

  it('sends the brotli file built beside an asset to a browser that accepts it, and says it varies', async () => {
    const response = await get('/assets/app-1234.js', 'gzip, deflate, br, zstd');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(script);
  });

  it('sends gzip to a client that accepts only gzip, and the plain file to one that accepts neither', async () => {
    const gzip = await get('/assets/app-1234.js', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(script);
    const plain = await get('/assets/app-1234.js', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('sends an asset the build did not compress as it is', async () => {
    const response = await get('/assets/plain-1234.js', 'br');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe(script);
  });

  it('sends the service worker and the manifest with their types, never cached, so a new build is seen at once', async () => {
    const worker = await get('/sw.js');
    expect(worker.statusCode).toBe(200);
    expect(worker.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(worker.headers['cache-control']).toBe('no-cache');
    const manifest = await get('/manifest.webmanifest');
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(manifest.headers['cache-control']).toBe('no-cache');
  });

  it('writes the serving commit into the page, for a navigation and for /index.html (what the worker keeps), escaped', async () => {
    const meta = '<meta name="assistant-commit" content="c0ffee&quot;&lt;x" />';
    for (const response of [
      await fastify.inject({ method: 'GET', url: '/chat', headers: { accept: 'text/html' } }),
      await get('/index.html', 'br, gzip'),
    ]) {
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toBe(`<!doctype html><html><head lang="en">\n    ${meta}<title>Assistant</title></head></html>`);
    }
    // What the build compressed of it (without the commit) is never sent.
    expect((await get('/index.html.br')).statusCode).toBe(404);
  });
});
