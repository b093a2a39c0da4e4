#!/usr/bin/env node
// The streaming case of `npm run bench`: how much latency the product adds between the model and
// the browser. A fake OpenAI server (through the real SDK) emits timed tokens; N clients stream at
// once through the gateway (SSE); each text delta's arrival is compared with when the fake wrote it
// (same process, same clock). Also the time from POST to the first delta, minus the fake's own delay.
//   BENCH_STREAMS (default 1,100,500), BENCH_STREAM_TOKENS (40), BENCH_TOKEN_INTERVAL_MS (25),
//   BENCH_FIRST_TOKEN_DELAY_MS (50), BENCH_TRANSPORTS (in-process,nats)
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from './build.mjs';
import { percentile, reachable, root } from './lib.mjs';

const levels = (process.env.BENCH_STREAMS ?? '1,100,500').split(',').map(Number);
const tokens = Number(process.env.BENCH_STREAM_TOKENS ?? 40);
const intervalMs = Number(process.env.BENCH_TOKEN_INTERVAL_MS ?? 25);
const firstDelayMs = Number(process.env.BENCH_FIRST_TOKEN_DELAY_MS ?? 50);
const transports = (process.env.BENCH_TRANSPORTS ?? 'in-process,nats').split(',');

build({ quiet: true });
const require = createRequire(join(root, 'package.json'));
const { bootEmbedded } = require('./deploy/embedded/dist/index.js');
const testing = require('./libs/testing/dist/index.js');

/** One client: POST, read the SSE, note when each text delta arrives. */
async function stream(base, token, chatId, marker) {
  const started = performance.now();
  const res = await fetch(`${base}/api/v1/chats/${chatId}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ content: marker }),
  });
  if (res.status !== 200) throw new Error(`stream answered ${res.status}: ${await res.text()}`);
  const arrivals = [];
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of res.body) {
    const now = performance.now();
    buffer += decoder.decode(chunk, { stream: true });
    const blocks = buffer.split('\n\n');
    buffer = blocks.pop();
    for (const block of blocks) if (block.startsWith('event: text')) arrivals.push(now);
  }
  return { started, arrivals };
}

const rows = [];
for (const transport of transports) {
  if (transport === 'nats' && !(await reachable(testing.machine.natsUrl))) {
    console.log('NATS does not answer: skipping the NATS transport.');
    continue;
  }
  const fake = new testing.FakeOpenAI();
  await fake.start();
  const text = Array.from({ length: tokens }, (_, i) => `t${i}`).join(' ');
  fake.setDefaultReply('responses', () => ({ steps: [{ delayMs: firstDelayMs }, { text, intervalMs }] }));
  const usePostgres = await reachable(testing.machine.databaseUrl.replace(/^postgres/, 'http'));
  const environment = usePostgres ? await testing.createTestEnvironment('benchstream', transport) : undefined;
  const dataDir = usePostgres ? undefined : mkdtempSync(join(tmpdir(), 'assistant-bench-'));
  const stack = await bootEmbedded({
    ...(environment?.env ?? { PORT: '0', DATA_DIR: dataDir, ...(transport === 'nats' ? { NATS_URL: testing.machine.natsUrl } : {}) }),
    LOG_LEVEL: 'error',
    LLM_PROVIDER: 'openai',
    OPENAI_API_KEY: 'bench',
    OPENAI_BASE_URL: fake.baseURL,
    CHAT_MODEL: 'bench-model',
    CHAT_GUEST_DAILY_LIMIT: '1000000',
    RATE_LIMIT_PER_MINUTE: '1000000',
    DB_POOL_MAX: '20',
  });
  try {
    const token = (await (await fetch(`${stack.url}/api/v1/auth/anon`, { method: 'POST' })).json()).token;
    // One conversation per client, as real users would have.
    const newChat = async () =>
      (await (await fetch(`${stack.url}/api/v1/chats/`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' })).json()).chat_id;
    await stream(stack.url, token, await newChat(), 'warm-up');
    for (const concurrency of levels) {
      fake.reset();
      fake.setDefaultReply('responses', () => ({ steps: [{ delayMs: firstDelayMs }, { text, intervalMs }] }));
      const markers = Array.from({ length: concurrency }, (_, i) => `bench-${concurrency}-${i}`);
      const chats = [];
      for (let i = 0; i < concurrency; i++) chats.push(await newChat());
      const results = await Promise.all(markers.map((marker, i) => stream(stack.url, token, chats[i], marker)));
      const added = [];
      const firstOverhead = [];
      const requests = fake.requests('responses').filter((r) => r.stream);
      markers.forEach((marker, i) => {
        const request = requests.find((r) => JSON.stringify(r.body.input).includes(marker));
        if (!request) return;
        const written = fake.emitted(request.requestId).filter((e) => e.event === 'response.output_text.delta').map((e) => e.at);
        const { started, arrivals } = results[i];
        written.forEach((at, k) => arrivals[k] !== undefined && added.push(arrivals[k] - at));
        if (arrivals.length && written.length) firstOverhead.push(arrivals[0] - started - (written[0] - request.at));
      });
      rows.push({ transport, concurrency, deltas: added.length, p50: percentile(added, 50), p99: percentile(added, 99), first50: percentile(firstOverhead, 50), first99: percentile(firstOverhead, 99) });
      console.log(`${transport}: ${concurrency} streams done`);
    }
  } finally {
    await stack.close();
    await environment?.cleanup();
    await fake.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

const pad = (s, n) => String(s).padEnd(n);
const ms = (v) => `${v.toFixed(1)}`;
console.log(`\nStreaming: ${tokens} tokens every ${intervalMs} ms after ${firstDelayMs} ms; latency added between the model and the SSE client`);
console.log(`${pad('transport', 12)}${pad('streams', 9)}${pad('deltas', 9)}${pad('added p50 ms', 14)}${pad('added p99 ms', 14)}${pad('POST→1st delta overhead p50', 29)}p99`);
for (const r of rows) console.log(`${pad(r.transport, 12)}${pad(r.concurrency, 9)}${pad(r.deltas, 9)}${pad(ms(r.p50), 14)}${pad(ms(r.p99), 14)}${pad(ms(r.first50), 29)}${ms(r.first99)}`);
process.exit(0);
