#!/usr/bin/env node
// A long conversation in the web client (`npm run bench:long-chat`, in `npm run bench`), in Chromium
// against the built product (`npm run build` first): 500 messages (markdown, fenced code, tables)
// written into the chat service's tables of the product's embedded PostgreSQL, then, in each of
// BENCH_LONG_RUNS fresh pages (default 3; the worst figure is the row's):
//   - open: navigation to the last message visible, its markdown rendered; goal under 1 s;
//   - scroll: from the top to the bottom, 200 px per animation frame (scrollBy); goal: no main-thread
//     task over 50 ms (PerformanceObserver 'longtask'), frames per second shown beside it;
//   - stream: a 2,000-token markdown reply streamed at the end of it at about 500 tokens/s, until
//     the stored reply replaced the draft and the history was read again; goal: no task over 50 ms.
//   BENCH_LONG_PROFILE=<dir>: one more run of each step with a CPU profile (.cpuprofile, for
//   Chrome's DevTools) and the functions with the most self time printed.
/* global document, requestAnimationFrame -- functions run in the page, through page.evaluate and waitForFunction */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { benchRecorder } from './bench-record.mjs';
import { startProfile, topSelf } from './bench-profile.mjs';
import { freePort, newConversation, root, startBuiltProduct, browserBenchTesting } from './lib.mjs';

const MESSAGES = 500;
const SCROLL_STEP_PX = 200;
const runs = Number(process.env.BENCH_LONG_RUNS ?? 3);
const profileDir = process.env.BENCH_LONG_PROFILE;
const testing = browserBenchTesting('bench-long-chat');
const { Client } = createRequire(join(root, 'package.json'))('pg');

const END_MARK = 'Last words of the seeded conversation.';

/** The assistant's side of the seeded conversation: five kinds of answers in turn. */
function answer(n) {
  const code = (lang, lines) =>
    [
      '```' + lang,
      ...Array.from({ length: lines }, (_, i) =>
        lang === 'py'
          ? `    total_${i} = compute(value_${i}, step=${i})  # step ${i}`
          : `  const item${i} = await load(${i}, { retries: ${i % 4} });`,
      ),
      '```',
    ].join('\n');
  const table = (rows) =>
    [
      '| Option | Cost | Speed | Note |',
      '| --- | ---: | :---: | --- |',
      ...Array.from(
        { length: rows },
        (_, i) => `| option ${i + 1} | ${(n * 7 + i * 13) % 400} € | ${i % 2 ? 'fast' : 'slow'} | **${i % 3 ? 'fine' : 'check'}** |`,
      ),
    ].join('\n');
  const prose = `Answer ${n} goes into some detail: the *first* part explains the idea, the **second** names its limits, and \`inline code\` shows the call. See [the guide](https://example.com/guide/${n}) for more.`;
  switch (n % 5) {
    case 0:
      return [
        prose,
        '',
        '- a first point to keep in mind',
        '- a second point, a little longer than the first one',
        '- a third point',
        '',
        prose,
      ].join('\n');
    case 1:
      return [`Here is a function for step ${n}:`, '', code('ts', 18), '', prose].join('\n');
    case 2:
      return [`### Comparison ${n}`, '', table(6), '', prose].join('\n');
    case 3:
      return [`## Plan ${n}`, '', '1. read the input', '2. clean it', '3. write the result', '', `> ${prose}`, '', code('py', 10)].join(
        '\n',
      );
    default:
      return [prose, '', prose, '', prose, '', prose].join('\n');
  }
}

/** Writes the conversation's messages straight into the chat service's tables (one chain, oldest first). */
async function seed(product, chatId) {
  const password = readFileSync(join(product.dataDir, 'postgres.password'), 'utf8').trim();
  const db = new Client({
    connectionString: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${product.pgPort}/postgres`,
    options: '-c search_path=chat',
  });
  await db.connect();
  try {
    const [{ user_id: userId }] = (await db.query('SELECT user_id FROM conversation WHERE id = $1', [chatId])).rows;
    let previous = null;
    const start = Date.now() - MESSAGES * 60_000;
    await db.query('BEGIN');
    for (let i = 0; i < MESSAGES; i++) {
      const id = randomUUID();
      const user = i % 2 === 0;
      let content = user ? `Question ${i / 2 + 1}: how would you handle case ${i} with \`options\`?` : answer(i);
      if (i === MESSAGES - 1) content += `\n\n${END_MARK}`;
      await db.query(
        `INSERT INTO message (id, chat_id, user_id, sender, author_user_id, content, previous_message_id, metadata, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9)`,
        [
          id,
          chatId,
          userId,
          user ? 'user' : 'assistant',
          user ? userId : null,
          content,
          previous,
          user ? '{}' : JSON.stringify({ provider: 'openai', model: 'gpt-bench' }),
          new Date(start + i * 60_000),
        ],
      );
      previous = id;
    }
    await db.query(
      "UPDATE conversation SET title = 'A long conversation', last_active_message_id = $2, last_message_at = now() WHERE id = $1",
      [chatId, previous],
    );
    await db.query('COMMIT');
  } finally {
    await db.end();
  }
}

/** The quality suite's reply (as in bench-web.mjs): about 2,000 words of headings, lists, tables and code. */
function longReply() {
  const parts = ['## A long answer', ''];
  let words = 0;
  for (let section = 1; words < 2000; section++) {
    parts.push(
      `### Part ${section}`,
      '',
      `This is paragraph ${section} of a long streamed reply with **many small deltas**, *emphasis*, \`inline code\` and a [link](https://example.com/${section}).`,
      '',
      '- first point of the list',
      '- second point, a little longer than the first one',
      '',
      '| Name | Value |',
      '| --- | ---: |',
      `| alpha | ${section} |`,
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
  // The last message is known by these words in every run (the reply of one run ends the conversation the next opens).
  return [...parts, END_MARK].join('\n');
}

/** Where the web client reads the conversation's messages (GET, a page of its active branch at a time). */
const messagesPath = (chatId) => `/api/v1/chats/${chatId}/messages`;

/** Every long task of the page from its start, with when it began (ms since navigation). */
const recordLongTasks = () => {
  globalThis.__longTasks = [];
  new PerformanceObserver((list) =>
    list.getEntries().forEach((e) => globalThis.__longTasks.push({ start: e.startTime, ms: e.duration })),
  ).observe({
    type: 'longtask',
    buffered: true,
  });
};
const longTasksBetween = (page, from, to) =>
  page.evaluate(([a, b]) => globalThis.__longTasks.filter((t) => t.start + t.ms >= a && t.start <= b).map((t) => t.ms), [from, to]);
const worstOf = (tasks) => (tasks.length ? Math.max(...tasks) : 0);

async function newPage(browser, url, state) {
  const context = await browser.newContext({ baseURL: url, viewport: { width: 1440, height: 900 }, storageState: state });
  await context.addInitScript(() => localStorage.setItem('firstTimeModalShown', 'true'));
  await context.addInitScript(recordLongTasks);
  return { context, page: await context.newPage() };
}

/** Navigation to the last message on screen, its markdown rendered: ms since navigation start, and the longest task meanwhile. */
async function open(page, chatId) {
  await page.goto(`/chat/${chatId}`);
  const visibleAt = await page.waitForFunction(
    (mark) => {
      const scroller = document.querySelector('.chat__scroll');
      const last = [...document.querySelectorAll('.message')].at(-1);
      if (!scroller || !last || !last.textContent.includes(mark) || last.querySelector('.markdown__pending')) return false;
      const box = last.getBoundingClientRect();
      const view = scroller.getBoundingClientRect();
      return box.bottom > view.top && box.top < view.bottom && performance.now();
    },
    END_MARK,
    { polling: 'raf', timeout: 60_000 },
  );
  const ms = await visibleAt.jsonValue();
  // When the conversation's messages had arrived (the rest is the client's own work).
  const answered = await page.evaluate(
    (path) => performance.getEntriesByType('resource').find((entry) => new URL(entry.name).pathname === path)?.responseEnd ?? 0,
    messagesPath(chatId),
  );
  return { ms, answered, longest: worstOf(await longTasksBetween(page, answered, ms)) };
}

/** From the top to the bottom, SCROLL_STEP_PX per frame: the longest task, frames per second and the slowest frame. */
async function scroll(page) {
  await page.evaluate(
    () =>
      new Promise((resolve) => {
        // At the top, and still there after 30 frames (whatever it renders there is rendered).
        const scroller = document.querySelector('.chat__scroll');
        let still = 0;
        const settle = () => {
          if (scroller.scrollTop !== 0) {
            scroller.scrollTop = 0;
            still = 0;
          } else still += 1;
          if (still >= 30) resolve();
          else requestAnimationFrame(settle);
        };
        settle();
      }),
  );
  const result = await page.evaluate(
    (step) =>
      new Promise((resolve) => {
        const scroller = document.querySelector('.chat__scroll');
        const start = performance.now();
        let last = start;
        let frames = 0;
        let slowest = 0;
        let atBottom = 0;
        const frame = (now) => {
          frames += 1;
          slowest = Math.max(slowest, now - last);
          last = now;
          scroller.scrollBy(0, step);
          atBottom = scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 2 ? atBottom + 1 : 0;
          if (atBottom >= 10) resolve({ start, end: now, frames, slowest, height: scroller.scrollHeight });
          else requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
    SCROLL_STEP_PX,
  );
  const tasks = await longTasksBetween(page, result.start, result.end);
  return { ...result, fps: (result.frames * 1000) / (result.end - result.start), longest: worstOf(tasks), count: tasks.length };
}

/** A long reply streamed at the end of the conversation, until it is stored and the history was read again. */
async function stream(page, chatId) {
  const reread = page.waitForResponse(
    (response) => response.request().method() === 'GET' && new URL(response.url()).pathname === messagesPath(chatId),
    { timeout: 180_000 },
  );
  const start = await page.evaluate(() => performance.now());
  await page.getByLabel('Message', { exact: true }).fill('Write me a long answer with tables and code.');
  await page.getByRole('button', { name: 'Send message' }).click();
  // Polled every 250 ms with one querySelector (Playwright's locators poll harder, on the page's main thread).
  await page.waitForFunction(() => document.querySelector('.message--draft .message__body'), null, { polling: 250, timeout: 60_000 });
  await page.waitForFunction(() => !document.querySelector('.message--draft'), null, { polling: 250, timeout: 180_000 });
  await reread;
  // The history read again is rendered in the frames after its answer.
  const end = await page.evaluate(
    () =>
      new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 50)))),
  );
  const tasks = await longTasksBetween(page, start, end);
  return { seconds: (end - start) / 1000, longest: worstOf(tasks), count: tasks.length };
}

const record = benchRecorder('long-chat');
const openai = new testing.FakeOpenAI({
  apiKey: 'bench-key',
  defaultReplies: {
    'chat.completions': (body) => (body.stream ? { steps: [{ text: longReply(), chunk: 'word', intervalMs: 2 }] } : 'A long conversation'),
  },
});
await openai.start();
const pgPort = await freePort();
const product = {
  ...(await startBuiltProduct(
    { OPENAI_BASE_URL: openai.baseURL, OPENAI_API_KEY: 'bench-key', CHAT_AUTO_MODEL: 'false', EMBEDDED_PG_PORT: String(pgPort) },
    'bench-long-chat',
  )),
  pgPort,
};
const browser = await testing.launchChromium();
try {
  // A guest of the web client, its conversation filled with the 500 messages.
  const first = await newPage(browser, product.url);
  await first.page.goto('/chat');
  await first.page.getByRole('heading', { name: 'How can I help?' }).waitFor({ timeout: 60_000 });
  const token = await first.page.evaluate(() => localStorage.getItem('access_token'));
  const state = await first.context.storageState();
  await first.context.close();
  const chatId = await newConversation(product.url, token);
  await seed(product, chatId);

  const results = [];
  const profiles = profileDir ? { open: null, scroll: null, stream: null } : null;
  for (let i = 0; i < runs + (profiles ? 1 : 0); i++) {
    const profiling = profiles && i === runs;
    const { context, page } = await newPage(browser, product.url, state);
    const stopOpen = profiling ? await startProfile(context, page) : null;
    const opened = await open(page, chatId);
    if (stopOpen) profiles.open = await stopOpen();
    const stopScroll = profiling ? await startProfile(context, page) : null;
    const scrolled = await scroll(page);
    if (stopScroll) profiles.scroll = await stopScroll();
    const stopStream = profiling ? await startProfile(context, page) : null;
    const streamed = await stream(page, chatId);
    if (stopStream) profiles.stream = await stopStream();
    await context.close();
    console.log(
      `${profiling ? 'profiled run' : `run ${i + 1}`}: open ${opened.ms.toFixed(0)} ms (messages arrived at ${opened.answered.toFixed(0)} ms, longest task after ${opened.longest.toFixed(0)} ms), scroll longest task ${scrolled.longest.toFixed(0)} ms at ${scrolled.fps.toFixed(0)} fps, stream longest task ${streamed.longest.toFixed(0)} ms`,
    );
    if (profiling)
      console.log(
        `Profiled run: open ${opened.ms.toFixed(0)} ms, scroll longest ${scrolled.longest.toFixed(0)} ms, stream longest ${streamed.longest.toFixed(0)} ms`,
      );
    else results.push({ opened, scrolled, streamed });
  }
  const list = (pick) => results.map(pick).join(', ');
  const worstOpen = Math.max(...results.map((r) => r.opened.ms));
  record.row(
    `${MESSAGES}-message conversation (markdown, code, tables): navigation to the last message shown`,
    `${worstOpen.toFixed(0)} ms, worst of ${runs} (runs ${list((r) => `${r.opened.ms.toFixed(0)} ms of which ${r.opened.answered.toFixed(0)} ms until the messages arrived, longest task after ${r.opened.longest.toFixed(0)} ms`)})`,
    'under 1 s',
    worstOpen < 1000,
  );
  const worstScroll = Math.max(...results.map((r) => r.scrolled.longest));
  record.row(
    `same, scrolled top to bottom at ${SCROLL_STEP_PX} px a frame: longest main-thread task`,
    `${worstScroll.toFixed(0)} ms, worst of ${runs} (runs ${list((r) => `${r.scrolled.longest.toFixed(0)} ms/${r.scrolled.count} long tasks, ${r.scrolled.fps.toFixed(0)} fps, slowest frame ${r.scrolled.slowest.toFixed(0)} ms`)}; ${(results[0].scrolled.height / 1000).toFixed(0)}k px)`,
    'no task over 50 ms (60 fps)',
    worstScroll <= 50,
  );
  const worstStream = Math.max(...results.map((r) => r.streamed.longest));
  record.row(
    'same, a 2,000-token reply streamed at its end at ~500 tokens/s: longest main-thread task',
    `${worstStream.toFixed(0)} ms, worst of ${runs} (runs ${list((r) => `${r.streamed.longest.toFixed(0)} ms/${r.streamed.count} long tasks`)}; stream and history ${results[0].streamed.seconds.toFixed(1)} s)`,
    'at most 50 ms',
    worstStream <= 50,
  );
  if (profiles) {
    mkdirSync(profileDir, { recursive: true });
    for (const [step, profile] of Object.entries(profiles)) {
      const file = join(profileDir, `long-chat-${step}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      console.log(`CPU profile: ${file}`);
      topSelf(profile, `(${step})`);
    }
  }
} finally {
  await browser.close();
  await product.stop();
  await openai.stop();
  console.log(`Written: ${record.save()}`);
}
