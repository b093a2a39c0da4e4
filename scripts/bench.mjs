#!/usr/bin/env node
// `npm run bench`: what a hop through the bus costs. For each transport (in-process, and NATS
// when it answers), the same answer is served two ways and loaded side by side with autocannon
// (in its own process): by the gateway itself (baseline) and by a service behind the bus
// (gateway -> transport -> service -> back). Prints requests/s and p99 for both and their ratio.
// The two are loaded in alternating rounds (baseline, bus, baseline, bus...), so a machine whose
// load swings (other processes) weighs on both alike; the ratio is the median of the rounds' ratios.
//   BENCH_SECONDS (default 10, per URL), BENCH_ROUNDS (default 5), BENCH_CONNECTIONS (default 50),
//   BENCH_TRANSPORTS (in-process,nats), BENCH_HOP_FLOOR=0: without the NATS floor (bench-floor/hop-floor.mjs:
//   plain node:http and the NATS client's own request, loaded the same way after the product), BENCH_RPC_PROFILE=<dir>: CPU profiles of the product during the first round (baseline-<transport>, rpc-<transport>)
// Also printed: the CPU each answer cost the product (this process) and, when it runs on this machine, nats-server.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchRecorder } from './bench-record.mjs';
import { startHopFloor } from './bench-floor/hop-floor.mjs';
import { build } from './build.mjs';
import { percentile, reachable, root } from './lib.mjs';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
const wanted = (process.env.BENCH_TRANSPORTS ?? 'in-process,nats').split(',');
const profileDir = process.env.BENCH_RPC_PROFILE;
const withFloor = process.env.BENCH_HOP_FLOOR !== '0';

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

/**
 * The local nats-server's process id, when there is one and its /proc entry can be read (of several,
 * the one whose command line names the port of `url`).
 */
function natsServerPid(url) {
  const pids = [];
  try {
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'nats-server') pids.push(pid);
      } catch {
        // gone meanwhile
      }
    }
  } catch {
    // no /proc
  }
  if (pids.length <= 1) return pids[0];
  const port = new URL(url).port || '4222';
  return pids.find((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(port);
    } catch {
      return false;
    }
  });
}

/** CPU time (user + system, µs) a process has used so far, from /proc (clock ticks of 10 ms). */
function processCpuMicros(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return undefined;
  }
}

/** CPU time (µs) of this process's children that have ended (autocannon's, once it has exited). */
function childrenCpuMicros() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10_000;
  } catch {
    return undefined;
  }
}

/** Context switches (voluntary and not) of this process so far: each is a wait for the network or for a core. */
function contextSwitches() {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    return [...status.matchAll(/ctxt_switches:\s+(\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
  } catch {
    return undefined;
  }
}

/** Loads a URL and answers, beside autocannon's figures, the CPU per answer of this process, of autocannon and of nats-server. */
async function measured(url, duration, natsPid) {
  const cpu = process.cpuUsage();
  const nats = natsPid ? processCpuMicros(natsPid) : undefined;
  const children = childrenCpuMicros();
  const switches = contextSwitches();
  const result = await load(url, duration);
  const switchesAfter = contextSwitches();
  const used = process.cpuUsage(cpu);
  const natsAfter = natsPid ? processCpuMicros(natsPid) : undefined;
  const childrenAfter = childrenCpuMicros();
  const per = (before, after) => (before !== undefined && after !== undefined ? (after - before) / result.total : undefined);
  return {
    ...result,
    cpuUs: (used.user + used.system) / result.total,
    loadUs: per(children, childrenAfter),
    natsUs: per(nats, natsAfter),
    switches: per(switches, switchesAfter),
  };
}

const medianOf = (values) => (values.every((v) => v !== undefined) ? percentile(values, 50) : undefined);

/** Runs `work`, profiled into `<profileDir>/<name>.cpuprofile` when `profile` is set. */
async function profiled(name, profile, work) {
  if (!profile) return work();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 1000 });
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile: taken } = await session.post('Profiler.stop');
    session.disconnect();
    mkdirSync(profileDir, { recursive: true });
    writeFileSync(join(profileDir, `${name}.cpuprofile`), JSON.stringify(taken));
  }
}

/** Warms both URLs up, then loads them in alternating rounds: their summaries (`rpc.ratio`: the median of the rounds' ratios). */
async function compare(label, baselineUrl, rpcUrl, natsPid) {
  console.log(`${label}: warming up...`);
  await load(baselineUrl, 2);
  await load(rpcUrl, 2);
  console.log(`${label}: ${seconds} s each in ${rounds} alternating rounds, ${connections} connections`);
  const perRound = Math.max(1, Math.round(seconds / rounds));
  const baselineRounds = [];
  const rpcRounds = [];
  for (let round = 0; round < rounds; round++) {
    const profile = Boolean(profileDir) && round === 0;
    baselineRounds.push(await profiled(`baseline-${label}`, profile, () => measured(baselineUrl, perRound, natsPid)));
    rpcRounds.push(await profiled(`rpc-${label}`, profile, () => measured(rpcUrl, perRound, natsPid)));
  }
  const summary = (all) => ({
    rps: all.reduce((sum, r) => sum + r.rps, 0) / all.length,
    p99: percentile(
      all.map((r) => r.p99),
      50,
    ),
    cpuUs: medianOf(all.map((r) => r.cpuUs)),
    loadUs: medianOf(all.map((r) => r.loadUs)),
    natsUs: medianOf(all.map((r) => r.natsUs)),
    switches: medianOf(all.map((r) => r.switches)),
  });
  const baseline = summary(baselineRounds);
  const rpc = summary(rpcRounds);
  rpc.ratio = percentile(
    rpcRounds.map((r, i) => r.rps / baselineRounds[i].rps),
    50,
  );
  return { transport: label, baseline, rpc };
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
  const natsPid = transport === 'nats' ? natsServerPid(testing.machine.natsUrl) : undefined;
  const stack = await bootEmbedded(env, { extraServices: [testing.probeService], extraGatewayModules: [testing.ProbeGatewayModule] });
  try {
    rows.push(await compare(transport, `${stack.url}/api/v1/probe/local?text=pong`, `${stack.url}/api/v1/probe/echo?text=pong`, natsPid));
  } finally {
    await stack.close();
    await environment?.cleanup();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
  if (transport === 'nats' && withFloor) {
    // The floor of the hop over NATS, in the same run on the same clients (bench-floor/hop-floor.mjs).
    const floor = await startHopFloor(testing.machine.natsUrl);
    try {
      rows.push(
        await compare('nats floor', `${floor.url}/api/v1/probe/local?text=pong`, `${floor.url}/api/v1/probe/echo?text=pong`, natsPid),
      );
    } finally {
      await floor.close();
    }
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
const micros = (value) => (value === undefined ? '-' : `${value.toFixed(0)} µs`);
console.log(`\nCPU per answer (median of the rounds; the product is this process, the bench's own work included)`);
console.log(
  `${pad('transport', 12)}${pad('baseline: product', 20)}${pad('autocannon', 13)}${pad('nats-server', 14)}${pad('switches', 10)}${pad('via bus: product', 20)}${pad('autocannon', 13)}${pad('nats-server', 14)}switches (the product's context switches per answer)`,
);
const perAnswer = (value) => (value === undefined ? '-' : value.toFixed(2));
for (const { transport, baseline, rpc } of rows) {
  console.log(
    `${pad(transport, 12)}${pad(micros(baseline.cpuUs), 20)}${pad(micros(baseline.loadUs), 13)}${pad(micros(baseline.natsUs), 14)}${pad(perAnswer(baseline.switches), 10)}${pad(micros(rpc.cpuUs), 20)}${pad(micros(rpc.loadUs), 13)}${pad(micros(rpc.natsUs), 14)}${perAnswer(rpc.switches)}`,
  );
}
// What each answer cost in all (the product or the floor, autocannon, nats-server): on 2 cores
// shared by the three, the ratio of requests/s follows the ratio of these sums.
const total = (side) => (side.cpuUs ?? 0) + (side.loadUs ?? 0) + (side.natsUs ?? 0);
const floorRow = rows.find((row) => row.transport === 'nats floor');
if (floorRow) {
  const added = total(floorRow.rpc) - total(floorRow.baseline);
  console.log(`\nThe floor's hop adds ${added.toFixed(0)} µs of CPU per answer (its process, autocannon and nats-server together)`);
  for (const row of rows.filter((r) => r.transport === 'nats')) {
    const own = total(row.rpc) - total(row.baseline);
    console.log(
      `${row.transport}: the product's hop adds ${own.toFixed(0)} µs; with the floor's hop instead, the ratio would be ${(total(row.baseline) / (total(row.baseline) + added)).toFixed(2)} at best`,
    );
  }
}
// The floor of a hop is the same answer given by the gateway itself, loaded in the same rounds.
const record = benchRecorder('hop');
for (const { transport, baseline, rpc } of rows) {
  const p99Times = rpc.p99 / baseline.p99;
  const value = `${rpc.ratio.toFixed(2)} (${Math.round(rpc.rps)} vs ${Math.round(baseline.rps)} req/s); p99 ${rpc.p99} vs ${baseline.p99} ms: ${p99Times.toFixed(2)}× (load average ${os.loadavg()[0].toFixed(1)})`;
  if (transport === 'nats floor')
    record.row('the same over NATS in plain node:http and the NATS client alone (the floor)', value, 'none: the floor', null);
  else
    record.row(
      `requests/s through the bus against the gateway alone, ${transport}`,
      value,
      'ratio at least 0.8, p99 at most 1.5×',
      rpc.ratio >= 0.8 && p99Times <= 1.5,
    );
}
record.save();
process.exit(0);
