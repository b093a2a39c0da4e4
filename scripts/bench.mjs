#!/usr/bin/env node
// `npm run bench`: what a hop through the bus costs. For each transport (in-process, and NATS
// when it answers), the same answer is served two ways and loaded side by side with autocannon
// (in its own process): by the gateway itself (baseline) and by a service behind the bus
// (gateway -> transport -> service -> back). Prints requests/s and p99 for both and their ratio.
// The two are loaded in alternating rounds (baseline, bus, baseline, bus...), so a machine whose
// load swings (other processes) weighs on both alike; the ratio is the median of the rounds' ratios.
//   BENCH_SECONDS (default 10, per URL), BENCH_ROUNDS (default 5), BENCH_CONNECTIONS (default 50),
//   BENCH_TRANSPORTS (in-process,nats), BENCH_RPC_PROFILE=<dir>: a CPU profile of the product during the bus rounds
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchRecorder } from './bench-record.mjs';
import { build } from './build.mjs';
import { percentile, reachable, root } from './lib.mjs';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
const wanted = (process.env.BENCH_TRANSPORTS ?? 'in-process,nats').split(',');
const profileDir = process.env.BENCH_RPC_PROFILE;

build({ quiet: true });
const require = createRequire(join(root, 'package.json'));
const { bootEmbedded } = require('./deploy/embedded/dist/index.js');
const testing = require('./libs/testing/dist/index.js');

/** Loads a URL from a separate autocannon process (the server runs in this one, so never block it). */
function load(url, duration) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(root, 'node_modules/autocannon/autocannon.js'), '-c', String(connections), '-d', String(duration), '-j', url],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon failed: ${err}`));
      const report = JSON.parse(out);
      if (report.non2xx > 0 || report.errors > 0)
        return reject(new Error(`${url}: ${report.non2xx} non-2xx answers, ${report.errors} errors`));
      resolve({ rps: report.requests.average, p99: report.latency.p99, total: report.requests.total });
    });
  });
}

const rows = [];
for (const transport of wanted) {
  if (transport === 'nats' && !(await reachable(testing.machine.natsUrl))) {
    console.log(`NATS does not answer at ${testing.machine.natsUrl}: skipping the NATS transport.`);
    continue;
  }
  const usePostgres = await reachable(testing.machine.databaseUrl.replace(/^postgres/, 'http'));
  const environment = usePostgres ? await testing.createTestEnvironment('bench', transport) : undefined;
  const dataDir = usePostgres ? undefined : mkdtempSync(join(tmpdir(), 'assistant-bench-'));
  const env = {
    ...(environment?.env ?? {
      PORT: '0',
      LOG_LEVEL: 'error',
      DATA_DIR: dataDir,
      ...(transport === 'nats' ? { NATS_URL: testing.machine.natsUrl } : {}),
    }),
    LOG_LEVEL: 'error',
    RATE_LIMIT_PER_MINUTE: '1000000',
  };
  const stack = await bootEmbedded(env, { extraServices: [testing.probeService], extraGatewayModules: [testing.ProbeGatewayModule] });
  try {
    const baselineUrl = `${stack.url}/api/v1/probe/local?text=pong`;
    const rpcUrl = `${stack.url}/api/v1/probe/echo?text=pong`;
    console.log(`${transport}: warming up...`);
    await load(baselineUrl, 2);
    await load(rpcUrl, 2);
    console.log(`${transport}: ${seconds} s each in ${rounds} alternating rounds, ${connections} connections`);
    const perRound = Math.max(1, Math.round(seconds / rounds));
    const baselineRounds = [];
    const rpcRounds = [];
    for (let round = 0; round < rounds; round++) {
      baselineRounds.push(await load(baselineUrl, perRound));
      const session = profileDir && round === 0 ? new Session() : undefined;
      if (session) {
        session.connect();
        await session.post('Profiler.enable');
        await session.post('Profiler.setSamplingInterval', { interval: 1000 });
        await session.post('Profiler.start');
      }
      rpcRounds.push(await load(rpcUrl, perRound));
      if (session) {
        const { profile } = await session.post('Profiler.stop');
        session.disconnect();
        mkdirSync(profileDir, { recursive: true });
        writeFileSync(join(profileDir, `rpc-${transport}.cpuprofile`), JSON.stringify(profile));
      }
    }
    const summary = (all) => ({
      rps: all.reduce((sum, r) => sum + r.rps, 0) / all.length,
      p99: percentile(
        all.map((r) => r.p99),
        50,
      ),
    });
    const baseline = summary(baselineRounds);
    const rpc = summary(rpcRounds);
    rpc.ratio = percentile(
      rpcRounds.map((r, i) => r.rps / baselineRounds[i].rps),
      50,
    );
    rows.push({ transport, baseline, rpc });
  } finally {
    await stack.close();
    await environment?.cleanup();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

const pad = (s, n) => String(s).padEnd(n);
console.log(
  `\nGET through the gateway: answered in the gateway (baseline) vs. by a service over the bus (${os.availableParallelism()} cores; req/s: mean of the rounds, p99: their median, ratio: median of the rounds' ratios)`,
);
console.log(
  `${pad('transport', 12)}${pad('baseline req/s', 16)}${pad('p99 ms', 8)}${pad('via bus req/s', 16)}${pad('p99 ms', 8)}${pad('ratio req/s', 13)}${pad('(of means)', 12)}p99 ratio   (goal: req/s ratio >= 0.8, p99 ratio <= 1.5)`,
);
for (const { transport, baseline, rpc } of rows) {
  console.log(
    `${pad(transport, 12)}${pad(Math.round(baseline.rps), 16)}${pad(baseline.p99, 8)}${pad(Math.round(rpc.rps), 16)}${pad(rpc.p99, 8)}${pad(rpc.ratio.toFixed(2), 13)}${pad((rpc.rps / baseline.rps).toFixed(2), 12)}${(rpc.p99 / baseline.p99).toFixed(2)}`,
  );
}
// The floor of a hop is the same answer given by the gateway itself, loaded in the same rounds.
const record = benchRecorder('hop');
for (const { transport, baseline, rpc } of rows) {
  const p99Times = rpc.p99 / baseline.p99;
  record.row(
    `requests/s through the bus against the gateway alone, ${transport}`,
    `${rpc.ratio.toFixed(2)} (${Math.round(rpc.rps)} vs ${Math.round(baseline.rps)} req/s); p99 ${rpc.p99} vs ${baseline.p99} ms: ${p99Times.toFixed(2)}× (load average ${os.loadavg()[0].toFixed(1)})`,
    'ratio at least 0.8, p99 at most 1.5×',
    rpc.ratio >= 0.8 && p99Times <= 1.5,
  );
}
record.save();
process.exit(0);
