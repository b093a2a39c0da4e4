#!/usr/bin/env node
// The web client in `npm run bench`, in Chromium against the built product (`npm run build` first):
//   - /chat's first load: the JavaScript's bytes on the wire (as the gateway sends them: brotli), goal 150 KB;
//   - the longest main-thread task (PerformanceObserver 'longtask') while a 2,000-token markdown reply
//     (headings, lists, tables, code) streams word by word every 2 ms (about 500 tokens/s), goal 50 ms;
//     the worst of BENCH_WEB_RUNS streams (default 3), each run's figure shown.
//   BENCH_WEB_PROFILE=<dir>: also writes a CPU profile (.cpuprofile, open it in Chrome's DevTools) of
//   one more stream and prints the functions with the most self time.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchRecorder } from './bench-record.mjs';
import { startProfile, topSelf } from './bench-profile.mjs';
import { browserBenchTesting, startBuiltProduct } from './lib.mjs';

const runs = Number(process.env.BENCH_WEB_RUNS ?? 3);
const profileDir = process.env.BENCH_WEB_PROFILE;
const testing = browserBenchTesting('bench-web');

/** The quality suite's reply (e2e/browser/quality.e2e-spec.ts): about 2,000 words of headings, lists, tables and code. */
function longReply() {
  const parts = ['## A long answer', ''];
  let words = 0;
  for (let section = 1; words < 2000; section++) {
    parts.push(
      `### Part ${section}`,
      '',
      `This is paragraph ${section} of a long streamed reply, written to check that the page stays responsive while **many small deltas** arrive quickly, with *emphasis*, \`inline code\` and a [link](https://example.com/${section}).`,
      '',
      '- first point of the list',
      '- second point, a little longer than the first one',
      '- third point',
      '',
      '| Name | Value | Note |',
      '| --- | ---: | --- |',
      `| alpha | ${section} | fine |`,
      `| beta | ${section * 2} | also fine |`,
      '',
      '```ts',
      `export function part${section}(input: number): number {`,
      '  return input * 2 + 1;',
      '}',
      '```',
      '',
    );
    words = parts.join(' ').split(/\s+/).length;
  }
  return parts.join('\n');
}

const startProduct = (env) => startBuiltProduct(env, 'bench-web');

async function firstLoad(browser, url) {
  const context = await browser.newContext({ baseURL: url, viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const scripts = [];
  page.on('requestfinished', async (request) => {
    if (request.resourceType() !== 'script') return;
    const [sizes, response] = await Promise.all([request.sizes(), request.response()]);
    scripts.push({
      file: new URL(request.url()).pathname,
      wire: sizes.responseBodySize,
      encoding: response?.headers()['content-encoding'],
    });
  });
  await page.addInitScript(() => localStorage.setItem('firstTimeModalShown', 'true'));
  await page.goto('/chat');
  await page.getByRole('heading', { name: 'How can I help?' }).waitFor({ timeout: 30_000 });
  await page.waitForTimeout(500);
  await context.close();
  return scripts;
}

/** Streams the long reply into a fresh page; answers the longest task (ms) and, with `profile`, a CPU profile of the stream. */
async function streamOnce(browser, url, profile) {
  const context = await browser.newContext({ baseURL: url, viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(() => localStorage.setItem('firstTimeModalShown', 'true'));
  await page.goto('/chat');
  await page.getByRole('heading', { name: 'How can I help?' }).waitFor({ timeout: 30_000 });
  await page.evaluate(() => {
    globalThis.__longTasks = [];
    new PerformanceObserver((list) => list.getEntries().forEach((entry) => globalThis.__longTasks.push(entry.duration))).observe({
      type: 'longtask',
      buffered: false,
    });
  });
  const stopProfile = profile ? await startProfile(context, page) : undefined;
  const started = Date.now();
  await page.getByLabel('Message', { exact: true }).fill('Write me a long answer with tables and code.');
  await page.getByRole('button', { name: 'Send message' }).click();
  await page.locator('.message--draft .message__body').waitFor({ timeout: 30_000 });
  await page.locator('.message--draft').waitFor({ state: 'detached', timeout: 120_000 });
  const streamMs = Date.now() - started;
  await page.locator('.message--assistant .code-block .hljs-keyword').first().waitFor({ timeout: 30_000 });
  const longTasks = await page.evaluate(() => globalThis.__longTasks);
  const written = stopProfile ? await stopProfile() : undefined;
  await context.close();
  return { longest: longTasks.length ? Math.max(...longTasks) : 0, count: longTasks.length, streamMs, profile: written };
}

const record = benchRecorder('web');
const openai = new testing.FakeOpenAI({
  apiKey: 'bench-key',
  defaultReplies: {
    'chat.completions': (body) => (body.stream ? { steps: [{ text: longReply(), chunk: 'word', intervalMs: 2 }] } : 'Markdown demo'),
  },
});
await openai.start();
const product = await startProduct({ OPENAI_BASE_URL: openai.baseURL, OPENAI_API_KEY: 'bench-key', CHAT_AUTO_MODEL: 'false' });
const browser = await testing.launchChromium();
try {
  const scripts = await firstLoad(browser, product.url);
  const wireKb = scripts.reduce((sum, s) => sum + s.wire, 0) / 1024;
  const plain = scripts.filter((s) => s.wire >= 1024 && !s.encoding).map((s) => s.file);
  record.row(
    '/chat first load, JavaScript on the wire',
    `${wireKb.toFixed(1)} KB in ${scripts.length} files (${[...new Set(scripts.map((s) => s.encoding ?? 'identity'))].join(', ')})` +
      (plain.length ? `; sent uncompressed: ${plain.join(', ')}` : ''),
    'at most 150 KB, brotli or gzip',
    wireKb <= 150 && plain.length === 0,
  );
  const results = [];
  for (let i = 0; i < runs; i++) results.push(await streamOnce(browser, product.url, false));
  const worst = Math.max(...results.map((r) => r.longest));
  record.row(
    'longest main-thread task while a 2,000-token reply streams at ~500 tokens/s',
    `${worst.toFixed(0)} ms, worst of ${runs} (runs ${results.map((r) => `${r.longest.toFixed(0)} ms/${r.count} long tasks`).join(', ')}; stream ${(results[0].streamMs / 1000).toFixed(1)} s)`,
    'at most 50 ms',
    worst <= 50,
  );
  if (profileDir) {
    const { profile, longest } = await streamOnce(browser, product.url, true);
    mkdirSync(profileDir, { recursive: true });
    const file = join(profileDir, 'web-stream.cpuprofile');
    writeFileSync(file, JSON.stringify(profile));
    console.log(`CPU profile of one more stream (longest task ${longest.toFixed(0)} ms): ${file}`);
    topSelf(profile, 'while streaming');
  }
} finally {
  await browser.close();
  await product.stop();
  await openai.stop();
  console.log(`Written: ${record.save()}`);
}
