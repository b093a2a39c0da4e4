import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { axeViolations, type AxeViolation } from './support/axe';
import { expectFocus, newContext, screenshot, scriptedModelSuite, VIEWPORTS } from './support/product';

/** A reply of about 2,000 tokens with the markdown a real one has: headings, lists, tables, code. */
function longReply(): string {
  const parts: string[] = ['## A long answer', ''];
  let words = 0;
  let section = 1;
  while (words < 2000) {
    parts.push(
      `### Part ${section}`,
      '',
      `This is paragraph ${section} of a long streamed reply, written to check that the page stays responsive while **many small deltas** arrive quickly, with *emphasis*, \`inline code\` and a [link](https://example.com/${section}).`,
      '',
    );
    parts.push('- first point of the list', '- second point, a little longer than the first one', '- third point', '');
    parts.push(
      '| Name | Value | Note |',
      '| --- | ---: | --- |',
      `| alpha | ${section} | fine |`,
      `| beta | ${section * 2} | also fine |`,
      '',
    );
    parts.push('```ts', `export function part${section}(input: number): number {`, '  return input * 2 + 1;', '}', '```', '');
    words = parts.join(' ').split(/\s+/).length;
    section++;
  }
  return parts.join('\n');
}

const REPLY = longReply();

describe('quality in a browser: bundle size, responsiveness while streaming, accessibility', () => {
  const suite = scriptedModelSuite({
    apiKey: 'browser-test-key',
    replies: {
      // Titles are not streamed; replies stream word by word every 2 ms (about 500 tokens/s).
      'chat.completions': (body) => (body.stream ? { steps: [{ text: REPLY, chunk: 'word', intervalMs: 2 }] } : 'Markdown demo'),
    },
    figuresFile: 'web-quality.json',
    figuresLabel: 'Web quality figures',
  });
  const { figures } = suite;

  async function guest(
    path: string,
    viewport: { width: number; height: number } = VIEWPORTS.wide,
    options: { bypassCSP?: boolean; light?: boolean } = {},
  ) {
    const context = options.bypassCSP
      ? await suite.browser.newContext({ baseURL: suite.product.url, viewport, bypassCSP: true })
      : await newContext(suite.browser, suite.product.url, viewport);
    const page = await context.newPage();
    await page.addInitScript((light) => {
      localStorage.setItem('firstTimeModalShown', 'true');
      if (light) localStorage.setItem('isDarkMode', 'false');
    }, !!options.light);
    await page.goto(path);
    return { context, page };
  }

  it('loads at most 150 KB of gzipped JavaScript for the first view of /chat', async () => {
    const context = await newContext(suite.browser, suite.product.url);
    const page = await context.newPage();
    const scripts = new Map<string, { body: Buffer; wire: number; encoding: string | undefined }>();
    page.on('response', async (response) => {
      if (response.request().resourceType() !== 'script') return;
      const body = await response.body().catch(() => Buffer.alloc(0));
      const sizes = await response.request().sizes();
      scripts.set(response.url(), { body, wire: sizes.responseBodySize, encoding: response.headers()['content-encoding'] });
    });
    await page.addInitScript(() => localStorage.setItem('firstTimeModalShown', 'true'));
    const started = Date.now();
    await page.goto('/chat');
    await page.getByRole('heading', { name: 'How can I help?' }).waitFor();
    const interactiveMs = Date.now() - started;
    await page.waitForTimeout(500);
    const paint = await page.evaluate(() => {
      const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null;
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
      return { fcp, domContentLoaded: nav?.domContentLoadedEventEnd ?? null };
    });
    const files = [...scripts.entries()].map(([url, { body, wire, encoding }]) => ({
      file: new URL(url).pathname,
      raw: body.length,
      gzip: gzipSync(body, { level: 9 }).length,
      wire,
      encoding,
    }));
    const gzipKb = files.reduce((sum, f) => sum + f.gzip, 0) / 1024;
    const wireKb = files.reduce((sum, f) => sum + f.wire, 0) / 1024;
    figures.chatFirstLoad = {
      gzipKb: Number(gzipKb.toFixed(1)),
      wireKb: Number(wireKb.toFixed(1)),
      rawKb: Number((files.reduce((s, f) => s + f.raw, 0) / 1024).toFixed(1)),
      files,
      interactiveMs,
      ...paint,
    };
    expect(files.some((f) => f.file.includes('highlight'))).toBe(false); // loaded on demand only
    expect(gzipKb).toBeLessThanOrEqual(150);
    // What actually crosses the wire: the gateway sends the build's brotli files (Chromium accepts br).
    // (Files under 1 KiB are not compressed: the headers would cost more than they save.)
    expect(files.filter((f) => f.raw >= 1024 && f.encoding !== 'br')).toEqual([]);
    expect(wireKb).toBeLessThanOrEqual(150);
    await context.close();
  }, 60_000);

  it('stays responsive while a 2,000-token reply streams at about 500 tokens/s', async () => {
    const { context, page } = await guest('/chat');
    await page.evaluate(() => {
      const w = window as unknown as { longTasks: number[] };
      w.longTasks = [];
      new PerformanceObserver((list) => list.getEntries().forEach((entry) => w.longTasks.push(entry.duration))).observe({
        type: 'longtask',
        buffered: false,
      });
    });
    await page.getByLabel('Message', { exact: true }).fill('Write me a long answer with tables and code.');
    const sentAt = Date.now();
    await page.getByRole('button', { name: 'Send message' }).click();
    await page.locator('.message--draft .message__body').waitFor({ timeout: 20_000 });
    const firstTextMs = Date.now() - sentAt;
    // While streaming, the page answers input: time a typed character in the composer.
    const typingDelays: number[] = [];
    for (let i = 0; i < 5; i++) {
      await page.waitForTimeout(400);
      const t = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const start = performance.now();
            requestAnimationFrame(() => resolve(performance.now() - start));
          }),
      );
      typingDelays.push(t);
    }
    await page.locator('.message--draft').waitFor({ state: 'detached', timeout: 60_000 });
    const streamMs = Date.now() - sentAt;
    const longTasks = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
    const text = await page.locator('.message--assistant').last().innerText();
    expect(text).toContain(`Part 1`);
    await page.locator('.message--assistant .code-block .hljs-keyword').first().waitFor();
    await page.locator('.message--assistant table').first().waitFor();
    await screenshot(page, 'long-reply-wide-dark');
    figures.longReply = {
      words: REPLY.split(/\s+/).length,
      firstTextMs,
      streamMs,
      longTasks: longTasks.length,
      longestTaskMs: longTasks.length ? Math.round(Math.max(...longTasks)) : 0,
      frameDelayMsDuringStream: typingDelays.map((d) => Math.round(d)),
    };
    // How long the page's tasks took is a figure, not an assertion: on a loaded 2-core machine a 20 ms
    // slice shows as a 400 ms task. The goal (no task over 50 ms while a reply streams) is a row of
    // `npm run bench:long-chat` and `bench:web`, measured beside its conditions.
    await context.close();
  }, 120_000);

  it('passes axe-core (WCAG 2.1 AA: names, roles, contrast) on the main screens in both themes', async () => {
    const results: Record<string, AxeViolation[]> = {};
    const check = async (page: Page, name: string) => {
      results[name] = await axeViolations(page);
    };
    for (const light of [false, true]) {
      const theme = light ? 'light' : 'dark';
      const chat = await guest('/chat', VIEWPORTS.wide, { bypassCSP: true, light });
      await chat.page.getByRole('heading', { name: 'How can I help?' }).waitFor();
      await check(chat.page, `chat-${theme}`);
      await chat.page.getByLabel('Message', { exact: true }).fill('Hello');
      await chat.page.keyboard.press('Enter');
      await chat.page.locator('.message--draft').waitFor({ state: 'detached', timeout: 60_000 });
      await check(chat.page, `conversation-${theme}`);
      for (const path of ['/login', '/settings', '/terms', '/loading-test']) {
        await chat.page.goto(path);
        await chat.page.locator('h1').first().waitFor();
        await chat.page.waitForTimeout(300);
        await check(chat.page, `${path.slice(1)}-${theme}`);
      }
      await chat.context.close();
    }
    figures.axe = Object.fromEntries(Object.entries(results).map(([name, v]) => [name, v.length ? v : 'no violations']));
    const serious = Object.entries(results).flatMap(([name, v]) =>
      v.filter((x) => x.impact === 'serious' || x.impact === 'critical').map((x) => `${name}: ${x.id} (${x.nodes}) ${x.sample}`),
    );
    expect(serious).toEqual([]);
  }, 180_000);

  it('works with the keyboard alone: skip link, composer, send, and the dialog keeps focus', async () => {
    // On a phone nothing takes focus on load (on a wide screen the message box does): the first stop is the skip link.
    const { context, page } = await guest('/chat', VIEWPORTS.narrow);
    await page.getByRole('heading', { name: 'How can I help?' }).waitFor();
    await page.keyboard.press('Tab');
    await expectFocus(page, (el) => el?.className, 'skip-link');
    await page.keyboard.press('Enter');
    await expectFocus(page, (el) => el?.id, 'composer-input');
    await page.keyboard.type('Typed with the keyboard');
    await page.keyboard.press('Enter');
    await page.locator('.message--draft').waitFor({ state: 'detached', timeout: 60_000 });
    // On a phone sharing is in the conversation's menu (the header leaves the room to the title).
    await page.getByRole('button', { name: 'Conversation options' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Share conversation' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Share conversation' });
    await dialog.waitFor();
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      // Inside the dialog, or out in the browser's own UI (body): never on the page behind it.
      expect(await page.evaluate(() => document.activeElement === document.body || !!document.activeElement?.closest('dialog'))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await context.close();
  }, 90_000);
});
