#!/usr/bin/env node
// The streaming case of `npm run bench`: how much latency the product adds between the model and
// the browser. A fake OpenAI server (through the real SDK) emits timed tokens; N clients stream at
// once through the gateway (SSE); each text delta's arrival is compared with when the fake wrote it.
// The fake and the clients run in a load process of their own (bench-load.mjs: same clock for both),
// the product in this one. Also the time from POST to the first delta, minus the fake's own delay.
// A start the service refuses (503 while it is overloaded) is counted, not fatal. The added latency
// is also given for the deltas that arrived once every stream of the level had started ("steady"),
// apart from the CPU that starting the others takes at the same time.
// Then the idle case: BENCH_IDLE_STREAMS replies kept open with nothing to say (the model silent,
// heartbeats only) by a client in another process, and what holding them costs this process
// (gateway and chat service together: an upper bound for the gateway alone).
//   BENCH_STREAMS (default 1,100,500), BENCH_STREAM_TOKENS (40), BENCH_TOKEN_INTERVAL_MS (25),
//   BENCH_FIRST_TOKEN_DELAY_MS (50), BENCH_TRANSPORTS (in-process,nats), BENCH_IDLE_STREAMS (5000; 0 skips),
//   BENCH_STREAM_PROFILE=<dir>: a CPU profile of the product while the largest level streams
// Once the idle replies are let go (their clients hang up, then their model calls end all at once,
// as a gateway restart or a network blip ends thousands of streams), every reply is read back from
// the database: one whose final state was not stored by its own process (still `streaming`, or only
// recovered from its last checkpoint once its lease ran out) is counted as lost; the goal is 0, and
// the bench exits non-zero otherwise. "The reply could not be saved" in the log is counted too.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { availableParallelism, loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnLoad } from './bench-load.mjs';
import { cpuSpent, sampleCpu, spawnFloor } from './bench-floor/floor.mjs';
import { measureSseParsing } from './bench-floor/sse-parse.mjs';
import { benchRecorder } from './bench-record.mjs';
import { build } from './build.mjs';
import { guestToken, newConversation, percentile, reachable, root } from './lib.mjs';

/** Lines of the product's log saying a reply could not be saved (LOG_FORMAT pretty: it logs through process.stdout.write). */
let notSavedLogged = 0;
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  const text = String(chunk);
  if (text.includes('The reply could not be saved')) notSavedLogged += text.split('The reply could not be saved').length - 1;
  return write(chunk, ...rest);
};

const levels = (process.env.BENCH_STREAMS ?? '1,100,500').split(',').map(Number);
const tokens = Number(process.env.BENCH_STREAM_TOKENS ?? 40);
const intervalMs = Number(process.env.BENCH_TOKEN_INTERVAL_MS ?? 25);
const firstDelayMs = Number(process.env.BENCH_FIRST_TOKEN_DELAY_MS ?? 50);
const transports = (process.env.BENCH_TRANSPORTS ?? 'in-process,nats').split(',');
const idleStreams = Number(process.env.BENCH_IDLE_STREAMS ?? 5000);
const profileDir = process.env.BENCH_STREAM_PROFILE;

/** A CPU profile of this process (the product) from now; `stop(name)` writes it and answers its path. */
async function startProfile() {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 1000 });
  await session.post('Profiler.start');
  return {
    stop: async (name) => {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      mkdirSync(profileDir, { recursive: true });
      const file = join(profileDir, `${name}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      return file;
    },
  };
}
// A full collection before each memory reading, so that it counts what is held, not what awaits collection.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');

build({ quiet: true });
const require = createRequire(join(root, 'package.json'));
const { Client } = require('pg');
const { bootEmbedded } = require('./deploy/embedded/dist/index.js');
const testing = require('./libs/testing/dist/index.js');

/**
 * Opens `idleStreams` replies whose model stays silent, from a client in another process (its
 * sockets are not this process's memory), and measures this process before and with them open.
 */
async function holdIdle(base, token, load, databaseUrl) {
  await load.reply({ silent: true });
  gc();
  const before = process.memoryUsage();
  const client = spawn(process.execPath, ['--input-type=module', '-e', IDLE_CLIENT], {
    env: { ...process.env, BASE: base, TOKEN: token, COUNT: String(idleStreams) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: client.stdout });
  let opened = 0;
  let failed = 0;
  let ended = 0;
  let reasons = {};
  let done = () => {};
  const allOpened = new Promise((resolve) => (done = resolve));
  const startedAt = performance.now();
  let openSeconds = 0;
  lines.on('line', (line) => {
    const message = JSON.parse(line);
    ({ opened, failed, ended, reasons } = message);
    if (message.done) {
      openSeconds = (performance.now() - startedAt) / 1000;
      done();
    }
  });
  await allOpened;
  await new Promise((r) => setTimeout(r, 3000)); // heartbeats flowing, nothing else
  gc();
  const held = process.memoryUsage();
  client.kill(); // every client hangs up at once
  const loggedBefore = notSavedLogged;
  const endedAt = performance.now();
  await load.stop(); // ends the silent model calls: every reply ends at once
  const settled = await settle(databaseUrl);
  const mib = (bytes) => bytes / 1024 / 1024;
  return {
    held: opened - ended,
    failed: failed + ended,
    reasons,
    openSeconds,
    rssMiB: mib(held.rss),
    rssAddedMiB: mib(held.rss - before.rss),
    heapAddedMiB: mib(held.heapUsed - before.heapUsed),
    perStreamKiB: (held.rss - before.rss) / 1024 / Math.max(1, opened - ended),
    lost: settled.lost,
    replies: settled.replies,
    settleSeconds: (performance.now() - endedAt) / 1000,
    notSaved: notSavedLogged - loggedBefore,
  };
}

/**
 * Waits until no reply is `streaming` any more (each stored by its process, or recovered once its
 * lease ran out), then counts the replies whose final state their process did not store: the
 * pipeline's last write sets `duration_ms` in the metadata, a checkpoint or a recovery never does.
 */
async function settle(databaseUrl) {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const deadline = Date.now() + 180_000;
    for (;;) {
      const { rows } = await db.query("SELECT count(*)::int AS n FROM chat.message WHERE sender = 'assistant' AND status = 'streaming'");
      if (rows[0].n === 0 || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const { rows } = await db.query(
      `SELECT count(*)::int AS replies,
              count(*) FILTER (WHERE status = 'streaming' OR NOT (metadata ? 'duration_ms'))::int AS lost
       FROM chat.message WHERE sender = 'assistant'`,
    );
    return rows[0];
  } finally {
    await db.end();
  }
}

/**
 * The idle client: opens COUNT reply streams, at most 50 starting at a time, and keeps them open.
 * A stream counts as opened once the reply has started (its first events came); one that ended
 * since (its reply failed: an `error` event, then the end) is counted as ended, not held.
 */
const IDLE_CLIENT = `
import { request } from 'node:http';
const { BASE, TOKEN, COUNT } = process.env;
const url = new URL(BASE);
let opened = 0, failed = 0, ended = 0, next = 0;
const reasons = {};
const because = (why) => (reasons[why] = (reasons[why] ?? 0) + 1);
const call = (method, path, body) => new Promise((resolve, reject) => {
  const req = request({ host: url.hostname, port: url.port, method, path, agent: false,
    headers: { authorization: 'Bearer ' + TOKEN, 'content-type': 'application/json' } }, resolve);
  req.on('error', reject);
  req.end(body);
});
const report = (done) => console.log(JSON.stringify({ opened, failed, ended, reasons, ...(done ? { done: true } : {}) }));
async function one(i) {
  try {
    const created = await call('POST', '/api/v1/chats/', '{}');
    let text = '';
    for await (const c of created) text += c;
    const res = await call('POST', '/api/v1/chats/' + JSON.parse(text).chat_id + '/messages', JSON.stringify({ content: 'idle-' + i }));
    if (res.statusCode !== 200) { failed++; because('HTTP ' + res.statusCode); res.resume(); return; }
    // What an ended stream said last (its error event's detail): why it ended.
    let tail = '';
    res.on('data', (chunk) => { tail = (tail + chunk).slice(-600); });
    res.once('close', () => {
      ended++;
      const error = /event: error\\ndata: (.*)\\n/.exec(tail);
      because(error ? JSON.parse(error[1]).detail : 'closed without an error event');
    });
    await new Promise((resolve) => res.once('data', resolve));
    opened++;
  } catch (error) { failed++; because(String(error)); }
}
async function worker() { while (next < Number(COUNT)) { await one(next++); if (next % 500 === 0) report(false); } }
await Promise.all(Array.from({ length: 50 }, worker));
report(true);
setInterval(() => report(false), 1000);
`;

const rows = [];
const idleRows = [];
for (const transport of transports) {
  if (transport === 'nats' && !(await reachable(testing.machine.natsUrl))) {
    console.log('NATS does not answer: skipping the NATS transport.');
    continue;
  }
  const load = await spawnLoad();
  const floor = await spawnFloor({ modelUrl: load.baseURL, profileDir });
  const text = Array.from({ length: tokens }, (_, i) => `t${i}`).join(' ');
  const reply = { firstDelayMs, text, intervalMs };
  const usePostgres = await reachable(testing.machine.databaseUrl.replace(/^postgres/, 'http'));
  const environment = usePostgres ? await testing.createTestEnvironment('benchstream', transport) : undefined;
  const dataDir = usePostgres ? undefined : mkdtempSync(join(tmpdir(), 'assistant-bench-'));
  const stack = await bootEmbedded({
    ...(environment?.env ?? { PORT: '0', DATA_DIR: dataDir, ...(transport === 'nats' ? { NATS_URL: testing.machine.natsUrl } : {}) }),
    LOG_LEVEL: 'error',
    LOG_FORMAT: 'pretty', // through process.stdout.write, where the lines saying a reply could not be saved are counted
    LLM_PROVIDER: 'openai',
    OPENAI_API_KEY: 'bench',
    OPENAI_BASE_URL: load.baseURL,
    CHAT_MODEL: 'bench-model',
    // The idle replies stay silent for minutes: neither side may give up on them meanwhile.
    LLM_STALL_TIMEOUT_MS: '600000',
    LLM_TOTAL_TIMEOUT_MS: '1800000',
    STREAM_IDLE_TIMEOUT_MS: '900000',
    CHAT_GUEST_DAILY_LIMIT: '1000000',
    RATE_LIMIT_PER_MINUTE: '1000000',
    DB_POOL_MAX: '20',
  });
  try {
    const token = await guestToken(stack.url);
    // One conversation per client, as real users would have.
    const newChat = () => newConversation(stack.url, token);
    await load.reply(reply);
    await load.stream(stack.url, token, [await newChat()], ['warm-up']);
    for (const concurrency of levels) {
      await load.reply(reply);
      const markers = Array.from({ length: concurrency }, (_, i) => `bench-${concurrency}-${i}`);
      const chats = [];
      for (let i = 0; i < concurrency; i++) chats.push(await newChat());
      const profiling = profileDir && concurrency === Math.max(...levels) ? await startProfile() : undefined;
      const cpu = process.cpuUsage();
      const sampler = sampleCpu();
      const { added, steady, firstOverhead, refused, failures, load: busy, window } = await load.stream(stack.url, token, chats, markers);
      const used = process.cpuUsage(cpu);
      const steadyCpu = sampler.between(window.from, window.to);
      sampler.stop();
      if (profiling) console.log(`CPU profile: ${await profiling.stop(`stream-${transport}-${concurrency}`)}`);
      console.log(
        `${transport}: ${concurrency} streams; the load process used ${(busy.cpuShare * 100).toFixed(0)} % of a core, its event loop's delay p99 ${busy.lagP99Ms.toFixed(1)} ms`,
      );
      if (failures.length) console.log(`${failures.length} of ${concurrency} streams failed, e.g. ${failures[0]}`);
      rows.push({
        transport,
        concurrency,
        deltas: added.length,
        refused,
        p50: percentile(added, 50),
        p99: percentile(added, 99),
        steady: steady.length,
        steady99: percentile(steady, 99),
        first50: percentile(firstOverhead, 50),
        first99: percentile(firstOverhead, 99),
        cpuPerDeltaUs: (used.user + used.system) / Math.max(1, added.length),
        // Once every stream had started: the relay's own cost, the starts apart (they have their own row).
        steadyCpuPerDeltaUs: steadyCpu / Math.max(1, steady.length),
      });
      // The floor at the same level, same clients, same fake model, right after: the bare relay.
      await load.reply(reply);
      const floorMarkers = Array.from({ length: concurrency }, (_, i) => `floor-${concurrency}-${i}`);
      const floorCpu = await floor.cpu();
      const bare = await load.stream(
        floor.url,
        token,
        floorMarkers.map(() => 'floor'),
        floorMarkers,
      );
      const floorUsed = cpuSpent(floorCpu, await floor.cpu());
      Object.assign(rows.at(-1), {
        floor: {
          deltas: bare.added.length,
          p50: percentile(bare.added, 50),
          p99: percentile(bare.added, 99),
          steady99: percentile(bare.steady, 99),
          first50: percentile(bare.firstOverhead, 50),
          cpuPerDeltaUs: floorUsed / Math.max(1, bare.added.length),
          steadyCpuPerDeltaUs: (await floor.cpuBetween(bare.window.from, bare.window.to)) / Math.max(1, bare.steady.length),
        },
      });
      console.log(`${transport}: ${concurrency} streams done (and the bare relay)`);
    }
    if (idleStreams > 0) idleRows.push({ transport, ...(await holdIdle(stack.url, token, load, stack.runtime.databaseUrl)) });
  } finally {
    await stack.close();
    await environment?.cleanup();
    await load.stop();
    await floor.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

const pad = (s, n) => String(s).padEnd(n);
const ms = (v) => (Number.isFinite(v) ? v.toFixed(1) : '-');
const ratio = (a, b) => (Number.isFinite(a / b) ? `${(a / b).toFixed(1)}×` : '-');
console.log(
  `\nStreaming (${availableParallelism()} cores, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(
      ' ',
    )}): ${tokens} tokens every ${intervalMs} ms after ${firstDelayMs} ms; latency added between the model and the SSE client. Each row: the product / the bare relay (scripts/bench-floor, same run, same clients and model)`,
);
console.log(
  `${pad('transport', 12)}${pad('streams', 9)}${pad('refused', 9)}${pad('deltas', 13)}${pad('added p50 ms', 16)}${pad('added p99 ms', 16)}${pad('steady p99 ms', 20)}${pad('POST→1st delta p50 ms', 23)}${pad('p99', 9)}CPU per delta µs (ratio)`,
);
for (const r of rows) {
  const f = r.floor ?? {};
  console.log(
    `${pad(r.transport, 12)}${pad(r.concurrency, 9)}${pad(r.refused, 9)}${pad(`${r.deltas}/${f.deltas}`, 13)}${pad(`${ms(r.p50)} / ${ms(f.p50)}`, 16)}${pad(`${ms(r.p99)} / ${ms(f.p99)}`, 16)}${pad(`${ms(r.steady99)} / ${ms(f.steady99)}`, 20)}${pad(`${ms(r.first50)} / ${ms(f.first50)}`, 23)}${pad(ms(r.first99), 9)}${pad(`${r.cpuPerDeltaUs.toFixed(0)} / ${f.cpuPerDeltaUs?.toFixed(0)} (${ratio(r.cpuPerDeltaUs, f.cpuPerDeltaUs)})`, 26)}${r.steadyCpuPerDeltaUs.toFixed(0)} / ${f.steadyCpuPerDeltaUs?.toFixed(0)} (${ratio(r.steadyCpuPerDeltaUs, f.steadyCpuPerDeltaUs)})`,
  );
}
const record = benchRecorder('stream');
for (const r of rows.filter((row) => row.concurrency >= 100 && row.floor)) {
  const times = r.steadyCpuPerDeltaUs / r.floor.steadyCpuPerDeltaUs;
  record.row(
    `CPU per delta once every stream had started, ${r.concurrency} streams, ${r.transport}`,
    `${r.steadyCpuPerDeltaUs.toFixed(0)} µs; the bare relay ${r.floor.steadyCpuPerDeltaUs.toFixed(0)} µs: ${times.toFixed(1)}× (the whole level, starts included: ${r.cpuPerDeltaUs.toFixed(0)} / ${r.floor.cpuPerDeltaUs.toFixed(0)} µs, ${ratio(r.cpuPerDeltaUs, r.floor.cpuPerDeltaUs)})`,
    'at most 3× the bare relay',
    times <= 3,
  );
  record.row(
    `added latency once every stream had started, p99, ${r.concurrency} streams, ${r.transport}`,
    `${ms(r.steady99)} ms (all deltas: ${ms(r.p99)} ms); the bare relay ${ms(r.floor.steady99)} ms (${ms(r.floor.p99)} ms)`,
    'at most 50 ms',
    r.steady99 <= 50,
  );
}
const parsing = await measureSseParsing();
record.row(
  "SSE parsing of the model's stream per event (in memory, one event per chunk)",
  `openai SDK ${parsing.sdkUs.toFixed(1)} µs; a minimal parser ${parsing.minimalUs.toFixed(1)} µs`,
  'measured, to decide whether the SDK is the cost',
  null,
);
record.save();
if (idleRows.length) {
  console.log(
    `\nIdle reply streams held open (goal: 5,000 under 1 GiB); memory of the product's process (gateway + chat + the other services)`,
  );
  console.log(
    `${pad('transport', 12)}${pad('held', 7)}${pad('failed', 8)}${pad('opened in s', 13)}${pad('RSS MiB', 10)}${pad('RSS added MiB', 15)}${pad('heap added MiB', 16)}per stream KiB`,
  );
  for (const r of idleRows)
    console.log(
      `${pad(r.transport, 12)}${pad(r.held, 7)}${pad(r.failed, 8)}${pad(r.openSeconds.toFixed(0), 13)}${pad(r.rssMiB.toFixed(0), 10)}${pad(r.rssAddedMiB.toFixed(0), 15)}${pad(r.heapAddedMiB.toFixed(0), 16)}${r.perStreamKiB.toFixed(0)}`,
    );
  for (const r of idleRows.filter((row) => row.failed))
    console.log(
      `${r.transport}: why the failed ones failed: ${Object.entries(r.reasons)
        .map(([why, n]) => `${n}× ${why}`)
        .join('; ')}`,
    );
  console.log(
    `\nEvery client hung up, then every reply ended at once; each reply read back from the database (goal: 0 lost, none "could not be saved")`,
  );
  console.log(`${pad('transport', 12)}${pad('replies', 9)}${pad('lost', 6)}${pad('"could not be saved" logged', 29)}all stored in s`);
  for (const r of idleRows)
    console.log(`${pad(r.transport, 12)}${pad(r.replies, 9)}${pad(r.lost, 6)}${pad(r.notSaved, 29)}${r.settleSeconds.toFixed(1)}`);
  const record = benchRecorder('stream-idle');
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
  for (const r of idleRows) {
    record.row(
      `idle reply streams one gateway holds (${r.transport})`,
      `${r.held} held, ${r.failed} failed${
        r.failed
          ? ` (${Object.entries(r.reasons)
              .map(([why, n]) => `${n}× ${why}`)
              .join('; ')})`
          : ''
      }; RSS ${r.rssMiB.toFixed(0)} MiB (load average ${load})`,
      `${idleStreams.toLocaleString('en')} under 1 GiB`,
      r.held === idleStreams && r.rssMiB < 1024,
    );
    record.row(
      `replies not stored when every client hung up and every reply ended at once (${r.transport})`,
      `${r.lost} of ${r.replies} (read back from the database); "could not be saved" logged ${r.notSaved} times; all stored within ${r.settleSeconds.toFixed(1)} s`,
      '0',
      r.lost === 0,
    );
  }
  record.save();
  const lost = idleRows.reduce((n, r) => n + r.lost, 0);
  if (lost > 0) {
    console.error(`\n${lost} replies were not stored by the process that wrote them (goal: 0).`);
    process.exit(1);
  }
}
process.exit(0);
