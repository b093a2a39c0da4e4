import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { freePort } from '../support/processes';
import { launchBrowser, newContext, root, screenshot, startProduct, type Product } from './support/product';

type CachedEntry = { cache: string; path: string; authorization: string | null };

/** Every request the page's origin holds in the Cache Storage, by cache. */
const cachedEntries = (page: Page): Promise<CachedEntry[]> =>
  page.evaluate(async () => {
    const entries: CachedEntry[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) {
        entries.push({ cache: name, path: new URL(request.url).pathname, authorization: request.headers.get('authorization') });
      }
    }
    return entries;
  });

/**
 * Waits until `predicate` holds in the page, polled from here (not by the page's own timers, which a
 * test may have replaced with Playwright's clock). A navigation in between only means "not yet".
 */
async function until(page: Page, predicate: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await page.evaluate(predicate).catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Waits until a service worker controls the page (it claims the page once it is active). */
const controlled = (page: Page) => until(page, () => navigator.serviceWorker.controller !== null, 'a service worker to control the page');

/** The build's own files: what the worker may keep (index.html, the hashed assets, icons, the manifest). */
const SHELL_FILE = /^\/(index\.html|theme-init\.js|favicon\.svg|manifest\.webmanifest|icons\/[\w-]+\.png|assets\/[\w.-]+\.(js|css|woff2))$/;

/** A PNG's width and height, from its header. */
const pngSize = (bytes: Buffer) => ({ width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) });

/**
 * The installable portal (issue 25): a manifest with icons, a service worker that keeps the app's
 * shell (never an API answer) so the portal opens without a network, and a new build picked up by
 * the version check. The product serves a copy of the built client (WEB_DIST_DIR), so the last test
 * can deploy a "new build" of it: the product restarted on the same origin with a changed index.html,
 * its worker's precache list and a new commit.
 */
describe('the installable portal in a browser', () => {
  let browser: Browser;
  let product: Product | undefined;
  let dist: string;
  let port: number;
  const start = async (commit: string) => {
    product = await startProduct({ WEB_DIST_DIR: dist, PORT: String(port), GIT_COMMIT: commit, OFFLINE_TOKEN_DELAY_MS: '1' });
    return product;
  };

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'assistant-web-'));
    cpSync(join(root, 'web/dist'), dist, { recursive: true });
    port = await freePort();
    browser = await launchBrowser();
    await start('build-one');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
    rmSync(dist, { recursive: true, force: true });
  });

  async function guestPage() {
    const context = await newContext(browser, product!.url);
    const page = await context.newPage();
    await page.addInitScript(() => localStorage.setItem('firstTimeModalShown', 'true'));
    return { context, page };
  }

  it('links a valid manifest whose icons resolve, and an icon for Apple', async () => {
    const url = product!.url;
    const html = await (await fetch(`${url}/chat`, { headers: { accept: 'text/html' } })).text();
    expect(html).toMatch(/<link rel="manifest" href="\/manifest\.webmanifest"/);
    expect(html).toMatch(/<link rel="apple-touch-icon" href="\/icons\/apple-touch-icon\.png"/);
    expect(html).toMatch(/<meta name="theme-color" content="#15181d"/);
    const response = await fetch(`${url}/manifest.webmanifest`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const manifest = (await response.json()) as {
      name: string;
      short_name: string;
      start_url: string;
      scope: string;
      display: string;
      theme_color: string;
      background_color: string;
      icons: { src: string; sizes: string; type: string; purpose: string }[];
    };
    expect(manifest).toMatchObject({
      name: 'Assistant',
      short_name: 'Assistant',
      start_url: '/chat',
      scope: '/',
      display: 'standalone',
      theme_color: '#15181d',
      background_color: '#15181d',
    });
    const sizes = manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose}`);
    expect(sizes).toEqual(expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']));
    for (const icon of [...manifest.icons, { src: '/icons/apple-touch-icon.png', sizes: '180x180', type: 'image/png' }]) {
      const image = await fetch(new URL(icon.src, url));
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe(icon.type);
      const [width, height] = icon.sizes.split('x').map(Number);
      expect(pngSize(Buffer.from(await image.arrayBuffer()))).toEqual({ width, height });
    }
    const worker = await fetch(`${url}/sw.js`);
    expect(worker.headers.get('content-type')).toMatch(/javascript/);
    expect(worker.headers.get('cache-control')).toBe('no-cache');
  });

  it('registers a worker that controls the page, keeps only the shell (no API answer) and opens without a network', async () => {
    const { context, page } = await guestPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto('/chat');
    await page.getByRole('heading', { name: 'How can I help?' }).waitFor();
    await controlled(page);
    // Answers of the API with the caller's token, and a shared chat: a conversation, shared, opened.
    await page.getByLabel('Message', { exact: true }).fill('Remember that my locker code is 4711');
    await page.getByLabel('Message', { exact: true }).press('Enter');
    await page.waitForURL('**/chat/*');
    await page.locator('.message--assistant').first().waitFor();
    const chatId = page.url().split('/chat/')[1];
    const share = await page.evaluate(async (id) => {
      const token = localStorage.getItem('access_token')!;
      const response = await fetch(`/api/v1/chats/${id}/share`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
      return (await response.json()) as { share_id: string };
    }, chatId);
    await page.goto(`/share/${share.share_id}`);
    await page.getByText('Remember that my locker code is 4711').first().waitFor();
    await page.goto(`/chat/${chatId}`);
    await page.locator('.message--assistant').first().waitFor();

    // The worker's install has precached the shell by the time it controls the page.
    const entries = await cachedEntries(page);
    const paths = entries.map((e) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['/index.html', '/manifest.webmanifest', '/icons/icon-192.png']));
    expect(paths.some((p) => /^\/assets\/index-[\w-]+\.js$/.test(p))).toBe(true);
    expect(paths.filter((p) => !SHELL_FILE.test(p))).toEqual([]);
    expect(entries.filter((e) => e.authorization !== null)).toEqual([]);
    expect(JSON.stringify(entries)).not.toContain(share.share_id);
    expect(JSON.stringify(entries)).not.toContain(chatId);
    // What the cached pages and scripts hold is the build's, not the user's.
    const holdsSecret = await page.evaluate(async () => {
      for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) if ((await (await cache.match(request))!.text()).includes('locker code')) return true;
      }
      return false;
    });
    expect(holdsSecret).toBe(false);

    // Offline, a reload shows the app's shell from the worker, not the browser's error page.
    await context.setOffline(true);
    await page.reload();
    expect(page.url()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/chat\//);
    expect(await page.title()).toBe('Assistant');
    // The app itself started (its script ran from the cache) and replaced the static frame.
    await until(page, () => document.querySelector('#root > .sk[data-app-skeleton]') === null, 'the app to start offline');
    await screenshot(page, 'installable-offline');
    await context.setOffline(false);
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);

  it('picks up a new build: the version check sees the new commit, the worker updates, the reload shows the new build', async () => {
    const { context, page } = await guestPage();
    await page.clock.install();
    await page.goto('/chat');
    await page.getByRole('heading', { name: 'How can I help?' }).waitFor();
    await controlled(page);
    expect(await page.evaluate(() => localStorage.getItem('versionHash'))).toBe('build-one');

    // The server goes away: a reload is served by the worker (a real outage, not an emulated one).
    await product!.stop();
    product = undefined;
    await page.reload();
    expect(await page.title()).toBe('Assistant');
    expect(await page.locator('meta[name="assistant-build"]').count()).toBe(0);

    // A new build is deployed on the same origin: its index.html differs, so does its worker's list.
    const indexPath = join(dist, 'index.html');
    const oldIndex = readFileSync(indexPath, 'utf8');
    const newIndex = oldIndex.replace('<head>', '<head>\n    <meta name="assistant-build" content="two" />');
    writeFileSync(indexPath, newIndex);
    rmSync(`${indexPath}.br`, { force: true });
    rmSync(`${indexPath}.gz`, { force: true });
    const md5 = (text: string) => createHash('md5').update(text).digest('hex');
    const workerPath = join(dist, 'sw.js');
    const worker = readFileSync(workerPath, 'utf8');
    expect(worker).toContain(`"revision":"${md5(oldIndex)}","url":"index.html"`);
    writeFileSync(workerPath, worker.replace(`"revision":"${md5(oldIndex)}"`, `"revision":"${md5(newIndex)}"`));
    rmSync(`${workerPath}.br`, { force: true });
    rmSync(`${workerPath}.gz`, { force: true });
    await start('build-two');

    // The next check (every 60 s: the page's clock is moved on) sees the new commit.
    await page.clock.fastForward(61_000);
    await until(page, () => document.querySelector('meta[name="assistant-build"]')?.getAttribute('content') === 'two', 'the new build');
    expect(await page.evaluate(() => localStorage.getItem('versionHash'))).toBe('build-two');
    await controlled(page);
    // The worker that controls the page now is the new build's: its shell is the new index.html.
    const stored = await page.evaluate(async () => {
      const keys = await caches.keys();
      for (const name of keys) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) if (request.url.includes('/index.html')) return (await cache.match(request))!.text();
      }
      return '';
    });
    expect(stored).toContain('name="assistant-build" content="two"');
    await context.close();
  }, 240_000);
});
