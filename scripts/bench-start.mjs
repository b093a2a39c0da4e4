#!/usr/bin/env node
// The start of a reply in `npm run bench`: the time from POST /chats/{id}/messages to the first text
// delta on the SSE stream, minus the model's own delay before its first token (a fake OpenAI server
// through the real SDK), for one reply and for many started at once; and the CPU the product's
// process (gateway, bus, services, database driver) spends per start. The fake model and the
// clients run in a load process of their own (bench-load.mjs). Each start is a new conversation's
// first message, as in bench-stream.
//   BENCH_START_LEVELS (default 1,500), BENCH_START_SINGLES (how many single starts, 30),
//   BENCH_TRANSPORTS (in-process,nats),
//   BENCH_START_PROFILE=<dir>: writes a CPU profile of the largest level's starts there (.cpuprofile),
//   BENCH_START_STEPS=1: prints how long each step of a start took (the chat service's calls, timed).
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { spawnLoad } from './bench-load.mjs';
import { cpuSpent, sampleCpu, spawnFloor } from './bench-floor/floor.mjs';
import { benchRecorder } from './bench-record.mjs';
import { build } from './build.mjs';
import { atMost, guestToken, newConversation, percentile, reachable, root } from './lib.mjs';

const levels = (process.env.BENCH_START_LEVELS ?? '1,500').split(',').map(Number);
const singles = Number(process.env.BENCH_START_SINGLES ?? 30);
const transports = (process.env.BENCH_TRANSPORTS ?? 'in-process,nats').split(',');
const profileDir = process.env.BENCH_START_PROFILE;
const timeSteps = process.env.BENCH_START_STEPS === '1';
const FIRST_DELAY_MS = 50;
/** How long the replies of a burst pause after their first words. */
const HOLD_MS = 10_000;

build({ quiet: true });
const require = createRequire(join(root, 'package.json'));
const { bootEmbedded } = require('./deploy/embedded/dist/index.js');
const testing = require('./libs/testing/dist/index.js');

/** Durations of the chat service's calls on the start path, by name (BENCH_START_STEPS=1). */
const steps = new Map();
function timeMethods(instance, label) {
  const proto = Object.getPrototypeOf(instance);
  for (const name of Object.getOwnPropertyNames(proto)) {
    if (name === 'constructor' || typeof Object.getOwnPropertyDescriptor(proto, name).value !== 'function') continue;
    const original = instance[name].bind(instance);
    instance[name] = (...args) => {
      const started = performance.now();
      const result = original(...args);
      if (!(result instanceof Promise)) return result;
      return result.finally(() => {
        const key = `${label}.${name}${name === 'call' ? ` ${args[0]?.subject ?? ''}` : ''}`;
        (steps.get(key) ?? steps.set(key, []).get(key)).push(performance.now() - started);
      });
    };
  }
}
function instrument(stack) {
  const chat = stack.services.find((s) => s.name === 'chat').app;
  const dist = (path) => require(`./services/chat/dist/${path}.js`);
  const { RpcClient } = require('./libs/platform/dist/index.js');
  timeMethods(chat.get(dist('conversations/chat.repository').ChatRepository), 'repo');
  timeMethods(chat.get(dist('replies/daily-limit').DailyLimit), 'limit');
  timeMethods(chat.get(RpcClient), 'rpc');
  for (const [file, name] of [
    ['replies/personalize.step', 'PersonalizeStep'],
    ['replies/prompt.step', 'PromptStep'],
    ['replies/reply-drafts', 'ReplyDrafts'],
  ])
    timeMethods(chat.get(dist(file)[name]), name);
}

async function run(stack, load, token, concurrency, profile, floor) {
  const newChat = () => newConversation(stack.url, token);
  const chats = [];
  for (let i = 0; i < concurrency; i++) chats.push(floor ? 'floor' : await newChat());
  // Many at once: the replies pause after their first words, so that their ends (the reply stored,
  // its events handled) do not fall among the starts: the CPU of the starts alone is read over the
  // window from the first POST to the last first delta. One at a time: the whole short reply.
  const holdMs = concurrency > 1 ? HOLD_MS : 0;
  await load.reply({ firstDelayMs: FIRST_DELAY_MS, text: 'first second', intervalMs: 1, holdMs });
  const markers = chats.map((_, i) => `${floor ? 'floor' : 'start'}-${concurrency}-${i}-${Math.random().toString(36).slice(2)}`);
  if (!floor) steps.clear(); // the bare start after it must not wipe what the product's run timed
  const session = profile ? new Session() : undefined;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 1000 });
    await session.post('Profiler.start');
  }
  const cpu = floor ? await floor.cpu() : process.cpuUsage();
  const sampler = floor ? undefined : sampleCpu();
  const { overhead, failures, window } = await load.start(floor ? floor.url : stack.url, token, chats, markers);
  let usedUs = floor ? cpuSpent(cpu, await floor.cpu()) : cpuSpent(cpu, process.cpuUsage());
  if (holdMs) usedUs = floor ? await floor.cpuBetween(window.from, window.to) : sampler.between(window.from, window.to);
  sampler?.stop();
  if (session) {
    const { profile: written } = await session.post('Profiler.stop');
    mkdirSync(profileDir, { recursive: true });
    const file = join(profileDir, `start-${profile}-${concurrency}.cpuprofile`);
    writeFileSync(file, JSON.stringify(written));
    console.log(`CPU profile: ${file}`);
    session.disconnect();
  }
  if (failures.length) console.log(`${failures.length} of ${concurrency} starts failed, e.g. ${failures[0]}`);
  return { overhead, cpuMs: usedUs / 1000 / concurrency };
}

const rows = [];
for (const transport of transports) {
  if (transport === 'nats' && !(await reachable(testing.machine.natsUrl))) {
    console.log('NATS does not answer: skipping the NATS transport.');
    continue;
  }
  if (!(await reachable(testing.machine.databaseUrl.replace(/^postgres/, 'http')))) {
    console.error(`PostgreSQL does not answer at ${testing.machine.databaseUrl}.`);
    process.exit(1);
  }
  const load = await spawnLoad();
  const environment = await testing.createTestEnvironment('benchstart', transport);
  // The bare start: one INSERT on the same PostgreSQL (the same database) and one model request.
  const floor = await spawnFloor({ modelUrl: load.baseURL, databaseUrl: environment.env.DATABASE_URL, profileDir });
  const stack = await bootEmbedded({
    ...environment.env,
    LOG_LEVEL: 'error',
    LLM_PROVIDER: 'openai',
    OPENAI_API_KEY: 'bench',
    OPENAI_BASE_URL: load.baseURL,
    CHAT_MODEL: 'bench-model',
    CHAT_GUEST_DAILY_LIMIT: '1000000',
    RATE_LIMIT_PER_MINUTE: '1000000',
    DB_POOL_MAX: '20',
  });
  try {
    if (timeSteps) instrument(stack);
    const token = await guestToken(stack.url);
    await run(stack, load, token, 20); // warm-up
    for (const concurrency of levels) {
      const samples = [];
      let cpuMs = 0;
      const rounds = concurrency === 1 ? singles : 1;
      for (let i = 0; i < rounds; i++) {
        const last = i === rounds - 1;
        const result = await run(
          stack,
          load,
          token,
          concurrency,
          last && profileDir && concurrency === Math.max(...levels) ? transport : undefined,
        );
        samples.push(...result.overhead);
        cpuMs += result.cpuMs / rounds;
      }
      // The floor at the same level, right after, the same way.
      const bare = [];
      let bareCpuMs = 0;
      await run(stack, load, token, 20, undefined, floor); // warm-up (the floor's pool and model connections)
      for (let i = 0; i < rounds; i++) {
        const result = await run(stack, load, token, concurrency, undefined, floor);
        bare.push(...result.overhead);
        bareCpuMs += result.cpuMs / rounds;
      }
      rows.push({
        transport,
        concurrency,
        n: samples.length,
        p50: percentile(samples, 50),
        p99: percentile(samples, 99),
        cpuMs,
        floor: { n: bare.length, p50: percentile(bare, 50), p99: percentile(bare, 99), cpuMs: bareCpuMs },
      });
      console.log(`${transport}: ${concurrency} at once done`);
      if (timeSteps) {
        for (const [name, durations] of [...steps].sort((a, b) => percentile(b[1], 50) - percentile(a[1], 50)))
          console.log(`  ${name.padEnd(60)} n=${String(durations.length).padEnd(5)} p50 ${percentile(durations, 50).toFixed(2)} ms`);
      }
    }
  } finally {
    // Each bounded: one that hung after the NATS level used to keep the summary from printing.
    await atMost(`the ${transport} stack's close`, stack.close());
    await atMost(`the ${transport} environment's clean-up`, environment.cleanup());
    await atMost("the model load's stop", load.stop());
    await atMost("the bare start's stop", floor.stop());
  }
}

const pad = (s, n) => String(s).padEnd(n);
const { availableParallelism, loadavg } = require('node:os');
console.log(
  `\nReply start: POST to the first text delta, minus the model's ${FIRST_DELAY_MS} ms before its first token (${availableParallelism()} cores, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(
      ' ',
    )}). Each figure: the product / the bare start (scripts/bench-floor: one INSERT, one model request; same run, clients and model)`,
);
console.log(`${pad('transport', 12)}${pad('at once', 9)}${pad('n', 7)}${pad('p50 ms', 18)}${pad('p99 ms', 18)}CPU per start ms (ratio)`);
for (const r of rows)
  console.log(
    `${pad(r.transport, 12)}${pad(r.concurrency, 9)}${pad(r.n, 7)}${pad(`${r.p50.toFixed(1)} / ${r.floor.p50.toFixed(1)}`, 18)}${pad(`${r.p99.toFixed(1)} / ${r.floor.p99.toFixed(1)}`, 18)}${r.cpuMs.toFixed(2)} / ${r.floor.cpuMs.toFixed(2)} (${(r.cpuMs / r.floor.cpuMs).toFixed(1)}×)`,
  );
const record = benchRecorder('start');
for (const r of rows) {
  const times = r.cpuMs / r.floor.cpuMs;
  record.row(
    `CPU per start, ${r.concurrency} at once, ${r.transport} (${r.concurrency > 1 ? 'the starts alone' : 'the whole short reply'})`,
    `${r.cpuMs.toFixed(2)} ms; the bare start ${r.floor.cpuMs.toFixed(2)} ms: ${times.toFixed(1)}×`,
    'at most 3× the bare start',
    times <= 3,
  );
  record.row(
    `POST to first delta, ${r.concurrency} at once, ${r.transport}, p50 / p99`,
    `${r.p50.toFixed(1)} / ${r.p99.toFixed(1)} ms; the bare start ${r.floor.p50.toFixed(1)} / ${r.floor.p99.toFixed(1)} ms`,
    r.concurrency === 1 ? 'at most 10 ms p50' : 'p50 under 1 s',
    r.concurrency === 1 ? r.p50 <= 10 : r.p50 < 1000,
  );
}
record.save();
process.exit(0);
