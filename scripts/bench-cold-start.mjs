#!/usr/bin/env node
// `npm start` on a fresh clone, in `npm run bench`: clones this repository's HEAD (committed work
// only) into a temporary directory, links its node_modules (as `npm ci` would have left them), runs
// `npm start` there (node scripts/start.mjs, free ports, the embedded PostgreSQL under the clone's
// .data) and times it to the first 200 from /readyz, with its phases from start's own lines: the
// services transpiled, the web client built and compressed (beside the boot), the boot (PostgreSQL
// created and started, migrations, services, gateway); then the same again on the same clone (nothing
// to build, the data there). Goal: at most 10 s cold. CPU: the start process and the children it
// waited for (Vite, initdb), not the PostgreSQL server.
//   BENCH_COLD_RUNS (cold starts, each on a new clone; default 1), BENCH_COLD_KEEP=1 keeps the clones.
import { spawn, execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchRecorder } from './bench-record.mjs';
import { freePort, root } from './lib.mjs';

const runs = Number(process.env.BENCH_COLD_RUNS ?? 1);
const GOAL_S = 10;

function freshClone() {
  const dir = mkdtempSync(join(tmpdir(), 'assistant-cold-'));
  chmodSync(dir, 0o755); // as a fresh clone is (mkdtemp's 0700 would keep root's PostgreSQL user out)
  execFileSync('git', ['clone', '--quiet', root, dir], { stdio: 'inherit' });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  if (existsSync(join(root, 'web/node_modules'))) symlinkSync(join(root, 'web/node_modules'), join(dir, 'web/node_modules'));
  return dir;
}

/** CPU seconds of a process and the children it waited for (Linux /proc; null elsewhere). */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}

async function start(dir) {
  const port = await freePort();
  const began = performance.now();
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: dir,
    env: { ...process.env, NODE_OPTIONS: '', PORT: String(port), EMBEDDED_PG_PORT: String(await freePort()), LOG_FORMAT: 'json' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const lines = [];
  const collect = (chunk) => {
    output += chunk;
    for (const line of String(chunk).split('\n')) if (line.trim()) lines.push({ at: performance.now() - began, line });
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`npm start did not get ready:\n${output.slice(-3000)}`);
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`)
      .then((res) => res.ok)
      .catch(() => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const readyS = (performance.now() - began) / 1000;
  const cpuS = cpuSeconds(child.pid);
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  const seconds = (pattern) => {
    const match = output.match(pattern);
    return match ? Number(match[1]) : null;
  };
  const firstAt = (text) => lines.find((l) => l.line.includes(text))?.at / 1000;
  return {
    readyS,
    cpuS,
    transpileS: seconds(/Compiled \d+ changed source files in ([\d.]+) s/),
    webBuildS: seconds(/Built the web client in ([\d.]+) s/),
    compressS: seconds(/Compressed \d+ web files in ([\d.]+) s/),
    bootS: seconds(/Ready in ([\d.]+) s/),
    postgresCreatedAtS: firstAt('Creating the embedded PostgreSQL cluster'),
    migratedAtS: lines.filter((l) => l.line.includes('Applied migrations')).at(-1)?.at / 1000,
  };
}

const f = (value) => (value === null || value === undefined || Number.isNaN(value) ? '–' : `${value.toFixed(1)} s`);
const phases = (r) =>
  `services transpiled ${f(r.transpileS)}; web client built ${f(r.webBuildS)} and compressed ${f(r.compressS)} beside the boot; ` +
  `boot ${f(r.bootS)} (PostgreSQL created at ${f(r.postgresCreatedAtS)}, last migration at ${f(r.migratedAtS)}); CPU ${f(r.cpuS)}`;

const record = benchRecorder('cold-start');
const cold = [];
const warm = [];
for (let i = 0; i < runs; i++) {
  const dir = freshClone();
  try {
    cold.push(await start(dir));
    warm.push(await start(dir));
  } finally {
    if (process.env.BENCH_COLD_KEEP !== '1') rmSync(dir, { recursive: true, force: true });
  }
}
const worst = cold.reduce((a, b) => (b.readyS > a.readyS ? b : a));
record.row(
  '`npm start` on a fresh clone after `npm ci`, to ready (/readyz)',
  `${f(worst.readyS)}${runs > 1 ? `, worst of ${runs} (${cold.map((r) => f(r.readyS)).join(', ')})` : ''}: ${phases(worst)}`,
  `at most ${GOAL_S} s`,
  worst.readyS <= GOAL_S,
);
const slowestWarm = warm.reduce((a, b) => (b.readyS > a.readyS ? b : a));
record.row(
  '`npm start` again on the same clone (nothing to build, the data there)',
  `${f(slowestWarm.readyS)}: ${phases(slowestWarm)}`,
  'none',
  null,
);
console.log(`Written: ${record.save()}`);
