#!/usr/bin/env node
// `npm test`: the whole suite. It checks the production dependencies' licences (an allow-list,
// scripts/licences.mjs), builds, type-checks the tests, lints (module boundaries included), then runs the unit, integration and API suites against the real PostgreSQL, NATS
// (JetStream) and Redis named by TEST_DATABASE_URL, TEST_NATS_URL and TEST_REDIS_URL (local
// defaults). Extra arguments go to Jest (e.g. `npm test -- e2e/api`).
import { build } from './build.mjs';
import { checkToolchain, reachable, run, runBin } from './lib.mjs';

checkToolchain();

const needs = [
  ['PostgreSQL', process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', 5432],
  ['NATS (with JetStream)', process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222', 4222],
  ['Redis', process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', 6379],
];
const missing = [];
for (const need of needs) if (!(await reachable(need[1], need[2]))) missing.push(need);
if (missing.length) {
  console.error('The test suite talks to real servers, and these do not answer:');
  for (const [name, url] of missing) console.error(`  - ${name} at ${url}`);
  console.error('Start them (see the README, "The two commands"), or point TEST_DATABASE_URL / TEST_NATS_URL / TEST_REDIS_URL elsewhere.');
  process.exit(1);
}

const started = Date.now();
console.log('Checking the licences of the production dependencies...');
run(process.execPath, ['scripts/licences.mjs']);
build({ quiet: true });
console.log('Type-checking the tests...');
runBin('typescript', 'bin/tsc', ['-p', 'tsconfig.spec.json']);
console.log('Linting...');
// The boundary rule reads the Nx project graph; compute it first or the rule would skip.
run(process.execPath, ['node_modules/nx/dist/bin/nx.js', 'show', 'projects'], {
  env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' },
  stdio: 'ignore',
});
run(process.execPath, ['node_modules/eslint/bin/eslint.js', '--max-warnings=0', '.']);
console.log('Checking the formatting (Prettier)...');
run(process.execPath, [
  'node_modules/prettier/bin/prettier.cjs',
  '--check',
  '--log-level=warn',
  'services',
  'libs',
  'web',
  'e2e',
  'scripts',
  'deploy',
]);
const jestArgs = process.argv.slice(2);
// The whole suite runs as a few Jest processes, one per layer: on a 2-core machine Jest runs its
// suites in band (in its own process), so one process for all of them carried every suite's
// leftovers to the end and ran out of heap. Arguments given run as one process, as asked.
const layers = jestArgs.length
  ? [jestArgs]
  : [
      ['--selectProjects', 'unit', 'integration'],
      ['--selectProjects', 'e2e', '--testPathPatterns', 'e2e/(api|embedded|deploy)/'],
      ['--selectProjects', 'e2e', '--testPathPatterns', 'e2e/faults/'],
      ['--selectProjects', 'e2e', '--testPathPatterns', 'e2e/browser/'],
    ];
for (const layer of layers) run(process.execPath, ['scripts/jest.mjs', ...layer]);
console.log('Web client unit tests (Vitest)...');
run(process.execPath, [new URL('../node_modules/vitest/vitest.mjs', import.meta.url).pathname, 'run'], {
  cwd: new URL('../web/', import.meta.url).pathname,
});
console.log(`All tests passed in ${Math.round((Date.now() - started) / 1000)} s.`);
