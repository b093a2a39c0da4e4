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
 * `promise`, or an error naming `what` when it has not settled within `ms`: a hang says where it is.
 * With STEP_LOG=1 each step's time is printed (`quiet` steps excepted).
 */
async function within<T>(what: string, promise: Promise<T>, ms = 30_000, quiet = false): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const started = Date.now();
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: not done within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (process.env.STEP_LOG && !quiet) process.stderr.write(`[step] ${what}: ${Date.now() - started} ms\n`);
  }
}

/**
 * Waits until `predicate` holds in the page, polled from here (not by the page's own timers, which a
 * test may have replaced with Playwright's clock). A navigation in between only means "not yet".
 */
async function until(page: Page, predicate: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // An evaluate waits for a navigation that starts during it (a reload into the new build): one that
    // never settles would hold it for ever, so each is bounded and the next poll asks again.
    if (await within(`the page to answer while waiting for ${what}`, page.evaluate(predicate), 5_000, true).catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what} (the page is at ${page.url()})`);
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
    await page
      .locator('.message--assistant')
      .first()
      .waitFor()
      .catch(async (error: Error) => {
        const answer = await page.evaluate(async (id) => {
          const token = localStorage.getItem('access_token')!;
          const response = await fetch(`/api/v1/chats/${id}/messages`, { headers: { authorization: `Bearer ${token}` } });
          return `${response.status} ${await response.text()}`;
        }, chatId);
        throw new Error(`${error.message}\nthe page reads: ${answer}\nit shows: ${await page.locator('main').innerText()}`);
      });

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
    // It says so, and keeps the session: back online, the same conversation opens, nobody was signed out.
    await page.getByRole('status').filter({ hasText: 'You are offline' }).waitFor();
    await screenshot(page, 'installable-offline');
    const token = await page.evaluate(() => localStorage.getItem('access_token'));
    await context.setOffline(false);
    await page.getByText('locker code').first().waitFor();
    expect(page.url()).toMatch(/\/chat\//);
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBe(token);
    expect(await page.getByRole('status').filter({ hasText: 'You are offline' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);

  it('picks up a new build: the version check sees the new commit, the worker updates, the reload shows the new build', async () => {
    const { context, page } = await guestPage();
    // What the page said and where it went, printed if it does not reach the new build.
    const story: string[] = [];
    const started = Date.now();
    const note = (line: string) => story.push(`${((Date.now() - started) / 1000).toFixed(1)}s ${line}`);
    page.on('console', (message) => note(`console.${message.type()}: ${message.text()}`));
    page.on('framenavigated', (frame) => frame === page.mainFrame() && note(`navigated: ${frame.url()}`));
    page.on('requestfailed', (request) => note(`failed: ${request.url()} ${request.failure()?.errorText}`));
    page.on(
      'response',
      (response) =>
        response.request().isNavigationRequest() &&
        note(`navigation answered ${response.status()} (worker: ${response.fromServiceWorker()})`),
    );
    await within('goto', page.goto('/chat'));
    await within('heading', page.getByRole('heading', { name: 'How can I help?' }).waitFor());
    await within('controlled', controlled(page));
    expect(
      await within(
        'versionHash',
        page.evaluate(() => localStorage.getItem('versionHash')),
      ),
    ).toBe('build-one');

    // The server goes away: a reload is served by the worker (a real outage, not an emulated one).
    await within('product.stop', product!.stop());
    product = undefined;
    await within('reload', page.reload());
    expect(await within('title', page.title())).toBe('Assistant');
    expect(await within('meta', page.locator('meta[name="assistant-build"]').count())).toBe(0);

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
    await within('start', start('build-two'), 150_000);

    // The next check (every 60 s: the page's clock is moved on) sees the new commit.
    note('the new build is up');
    await within('fastForward', page.clock.fastForward(61_000));
    await within(
      'new build',
      until(page, () => document.querySelector('meta[name="assistant-build"]')?.getAttribute('content') === 'two', 'the new build'),
      90_000,
    ).catch(async (error: Error) => {
      const state = await within(
        'state',
        page.evaluate(() => ({ stored: localStorage.getItem('versionHash'), worker: navigator.serviceWorker.controller?.state ?? null })),
        5_000,
      ).catch(String);
      throw new Error(`${error.message}\n${JSON.stringify(state)}\n${story.join('\n')}`);
    });
    expect(
      await within(
        'versionHash two',
        page.evaluate(() => localStorage.getItem('versionHash')),
      ),
    ).toBe('build-two');
    await within('controlled two', controlled(page));
    // The worker that controls the page now is the new build's: its shell is the new index.html.
    const stored = await within(
      'stored shell',
      page.evaluate(async () => {
        const keys = await caches.keys();
        for (const name of keys) {
          const cache = await caches.open(name);
          for (const request of await cache.keys()) if (request.url.includes('/index.html')) return (await cache.match(request))!.text();
        }
        return '';
      }),
    );
    expect(stored).toContain('name="assistant-build" content="two"');
    await within('close', context.close());
  }, 240_000);
});
