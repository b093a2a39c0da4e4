#!/usr/bin/env node
// The browser voice case: in Chromium, with auto read-aloud on, the time from the first complete
// sentence of a streamed reply (the moment the page's reply text holds it and the speech chunker
// cuts it) to the first audio sample scheduled on Web Audio; p50 and p95 over BENCH_VOICE_REPLIES
// replies (default 20), with the offline engine (each first sentence new to it), the same served
// from the cache (offline-cached: the questions asked once before, so the first sentence is a
// replay: the floor), and with the fake OpenAI speech engine (openai-compatible through the SDK).
// Needs `npm run build` and Chromium (CHROMIUM_PATH).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { benchRecorder } from './bench-record.mjs';
import { percentile, root, startBuiltProduct } from './lib.mjs';

const replies = Number(process.env.BENCH_VOICE_REPLIES ?? 20);
// The user's shortest chunk: 20 by default here (the first sentence of a reply), 100 is the product's default.
const minChars = Number(process.env.BENCH_VOICE_MIN_CHARS ?? 20);
const engines = (process.env.BENCH_VOICE_ENGINES ?? 'offline,offline-cached,openai').split(',');
const main = join(root, 'deploy/embedded/dist/main.js');
if (!existsSync(main) || !existsSync(join(root, 'web/dist/index.html'))) {
  console.error('Run `npm run build` first.');
  process.exit(1);
}
const require = createRequire(join(root, 'package.json'));
const testing = require('./libs/testing/dist/index.js');
if (!testing.chromiumInstalled()) {
  console.log(`Voice in the browser: skipped. ${testing.CHROMIUM_MISSING}`);
  process.exit(0);
}

const startProduct = (env) => startBuiltProduct(env, 'bench-voice');

const QUESTIONS = ['Tell me about yourself.', 'What can you do for me?', 'How does this portal work?', 'Say something helpful.'];

async function measure(engine) {
  let fake;
  const cached = engine === 'offline-cached';
  const env = { OFFLINE_TOKEN_DELAY_MS: '12', TTS_REQUESTS_PER_MINUTE: '100000', ...(cached ? {} : { TTS_CACHE_MAX_BYTES: '0' }) };
  if (engine === 'openai') {
    fake = new testing.FakeOpenAI();
    await fake.start();
    fake.setDefaultReply('audio.speech', () => ({ durationMs: 800 }));
    Object.assign(env, { TTS_ENGINE: 'openai-compatible', TTS_BASE_URL: fake.baseURL, TTS_API_KEY: 'test' });
  }
  const product = await startProduct(env);
  const browser = await testing.launchChromium(['--autoplay-policy=no-user-gesture-required']);
  const samples = [];
  const parts = { queue: [], server: [], body: [], decode: [] };
  try {
    const page = await (await browser.newContext({ baseURL: product.url })).newPage();
    await page.addInitScript(() => localStorage.setItem('firstTimeModalShown', 'true'));
    await page.goto('/chat');
    await page.getByRole('heading', { name: 'How can I help?' }).waitFor({ timeout: 30_000 });
    const status = await page.evaluate(async (minChars) => {
      const res = await fetch('/api/v1/user_config/ai-voice', {
        method: 'POST',
        headers: { authorization: `Bearer ${localStorage.getItem('access_token')}`, 'content-type': 'application/json' },
        body: JSON.stringify({ auto_read_aloud: true, min_chars: minChars }),
      });
      return res.status;
    }, minChars);
    if (status !== 200) throw new Error(`The voice settings answered ${status}`);
    await page.reload();
    await page.getByRole('heading', { name: 'How can I help?' }).waitFor();
    let previous = null;
    // Cached: each question once before (its first sentence spoken and kept), then the same again.
    const warm = cached ? QUESTIONS.length : 0;
    for (let i = -warm; i < replies; i += 1) {
      const question = cached ? QUESTIONS[(i + warm) % QUESTIONS.length] : `${QUESTIONS[i % QUESTIONS.length]} (${i + 1})`;
      await page.getByLabel('Message', { exact: true }).fill(question);
      await page.getByRole('button', { name: 'Send message' }).click();
      // This reply's first chunk cut and its first audio scheduled (not the last reply's: its chunk time differs).
      const handle = await page.waitForFunction(
        (before) => {
          // The client's User Timing marks: the first chunk cut, then its first sample playing.
          const chunk = performance.getEntriesByName('voice:first-chunk').at(-1);
          const audio = performance.getEntriesByName('voice:first-audio').at(-1);
          return chunk && chunk.startTime !== before && audio && audio.startTime >= chunk.startTime
            ? { firstChunkAt: chunk.startTime, firstAudioAt: audio.startTime }
            : null;
        },
        previous,
        { timeout: 60_000, polling: 20 },
      );
      const { firstAudioAt, firstChunkAt } = await handle.jsonValue();
      previous = firstChunkAt;
      // Where the time went: the first speech request after the chunk was cut (Resource Timing).
      const timing = await page.evaluate((cut) => {
        const entry = performance
          .getEntriesByType('resource')
          .find((e) => e.name.endsWith('/api/v1/text-to-speech/file') && e.startTime >= cut - 1);
        return entry
          ? {
              startTime: entry.startTime,
              requestStart: entry.requestStart,
              responseStart: entry.responseStart,
              responseEnd: entry.responseEnd,
            }
          : null;
      }, firstChunkAt);
      if (i < 0) {
        await page.getByRole('button', { name: 'Send message' }).waitFor({ timeout: 60_000 });
        continue;
      }
      samples.push(firstAudioAt - firstChunkAt);
      if (timing) {
        parts.queue.push(timing.startTime - firstChunkAt);
        parts.server.push(timing.responseStart - timing.startTime);
        parts.body.push(timing.responseEnd - timing.responseStart);
        parts.decode.push(firstAudioAt - timing.responseEnd);
      }
      // The reply streams to its end before the next question (sending stops what is read).
      await page.getByRole('button', { name: 'Send message' }).waitFor({ timeout: 60_000 });
      await page.evaluate(() => performance.clearResourceTimings());
    }
  } finally {
    await browser.close();
    await product.stop();
    await fake?.stop();
  }
  return { samples, parts };
}

const recorder = benchRecorder('voice-browser');
const rows = [];
for (const engine of engines) {
  const { samples, parts } = await measure(engine);
  const p50 = percentile(samples, 50);
  const p95 = percentile(samples, 95);
  const median = (values) => (values.length ? Number(percentile(values, 50).toFixed(1)) : null);
  rows.push({
    engine,
    replies: samples.length,
    'p50 ms': Number(p50.toFixed(1)),
    'p95 ms': Number(p95.toFixed(1)),
    'max ms': Number(Math.max(...samples).toFixed(1)),
    'chunk→fetch p50': median(parts.queue),
    'fetch→first byte p50': median(parts.server),
    'body p50': median(parts.body),
    'decode+schedule p50': median(parts.decode),
  });
  recorder.row(
    `first complete sentence in the page to first audio sample scheduled (Chromium, ${{ openai: 'fake OpenAI engine', offline: 'offline engine', 'offline-cached': 'offline engine, replayed from the cache' }[engine]}, min_chars ${minChars})`,
    `p50 ${p50.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms (${samples.length} replies)`,
    'at most 300 ms',
    p50 <= 300 && p95 <= 300,
  );
}
console.log(
  'First complete sentence in the page → first audio sample scheduled (Chromium, Web Audio), and where the time goes (p50 of each step):',
);
console.table(rows);
console.log(`Written to ${recorder.save()}`);
