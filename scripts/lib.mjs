// Helpers shared by the root scripts (build, start, test, bench).
import { spawn, spawnSync } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Stops with a plain sentence when the Node.js version or the install is not right. */
export function checkToolchain() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 24) {
    console.error(
      `This project needs Node.js 24 (found ${process.versions.node}). Install it (see .nvmrc), e.g. with nvm: nvm install 24 && nvm use 24`,
    );
    process.exit(1);
  }
  if (!existsSync(join(root, 'node_modules', 'typescript'))) {
    console.error('Dependencies are missing: run `npm ci` first.');
    process.exit(1);
  }
}

/** Runs a command with inherited output; exits with its code when it fails. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: root, ...options });
  if (result.status !== 0) {
    if (options.allowFailure) return result.status ?? 1;
    process.exit(result.status ?? 1);
  }
  return 0;
}

/** Runs a package's bin with the current Node.js. */
export function runBin(pkg, bin, args, options = {}) {
  // By path: packages' "exports" often do not list their bin files.
  return run(process.execPath, [join(root, 'node_modules', pkg, bin), ...args], options);
}

/** Whether something listens at a URL's host and port (for skipping what the machine lacks). */
export function reachable(url, fallbackPort) {
  return new Promise((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = connect({ host: hostname, port: Number(port || fallbackPort), timeout: 1000 });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

/** p50 / p99 of samples (nearest rank). */
export function percentile(values, p) {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** A TCP port free on 127.0.0.1 at the time of asking. */
export function freePort() {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * The built product (`npm run build` first) in a child process, with its own data folder and
 * ports, for a bench: answers its URL once it says it is ready, and a stop that ends it and its
 * data. `env` adds to (or overrides) the child's environment.
 */
export async function startBuiltProduct(env = {}, label = 'bench') {
  const dataDir = mkdtempSync(join(tmpdir(), `assistant-${label}-`));
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, 'deploy/embedded/dist/main.js')], {
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      DATA_DIR: dataDir,
      PORT: String(port),
      EMBEDDED_PG_PORT: String(await freePort()),
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const deadline = Date.now() + 90_000;
  while (!output.includes('Assistant is ready: http://')) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`The product did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    /** The product's process id (its peak memory is in /proc/<pid>/status). */
    pid: child.pid,
    /** Its DATA_DIR (the embedded PostgreSQL's password is in postgres.password there). */
    dataDir,
    stop: async () => {
      const exited = new Promise((r) => child.on('exit', r));
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A guest's access token from a running product. */
export async function guestToken(url) {
  return (await (await fetch(`${url}/api/v1/auth/anon`, { method: 'POST' })).json()).token;
}

/** A new conversation of the token's user; answers its id. */
export async function newConversation(url, token) {
  const res = await fetch(`${url}/api/v1/chats/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  return (await res.json()).chat_id;
}

/**
 * What a bench in the browser needs before it starts: the built product and web client, and
 * Chromium. Exits with a clear line when the build is missing (1) or Chromium is (0: skipped);
 * answers the built test library (fakes, the browser launcher).
 */
export function browserBenchTesting(name) {
  const built = ['deploy/embedded/dist/main.js', 'web/dist/index.html', 'libs/testing/dist/index.js'];
  if (built.some((file) => !existsSync(join(root, file)))) {
    console.error(`${name}: run \`npm run build\` first.`);
    process.exit(1);
  }
  const testing = createRequire(join(root, 'package.json'))('./libs/testing/dist/index.js');
  if (!testing.chromiumInstalled()) {
    console.error(`${name}: skipped. ${testing.CHROMIUM_MISSING}`);
    process.exit(0);
  }
  return testing;
}

/**
 * Waits for `promise` (a clean-up step of a bench) at most `ms`, then goes on with a warning: a
 * server that keeps a connection open must not hold a bench's summary back for ever.
 */
export async function atMost(what, promise, ms = 30_000) {
  let timer;
  const gaveUp = new Promise((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  const outcome = await Promise.race([promise.then(() => 'done'), gaveUp]);
  clearTimeout(timer);
  if (outcome === 'timeout') console.warn(`${what} did not finish within ${ms / 1000} s; going on`);
}
