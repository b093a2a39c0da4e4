#!/usr/bin/env node
// `npm run build`: compiles every project (incrementally, type-checked by tsc) and the web client
// (when it changed), and records the commit the gateway reports at /api/v1/version/commit.
// `npm start` uses buildForStart: the same output, transpiled by SWC without the type check.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { extname, join } from 'node:path';
import { brotliCompress, brotliCompressSync, constants as zlib, gzip as gzipCallback, gzipSync } from 'node:zlib';
import { checkToolchain, root, runBin } from './lib.mjs';

const brotli = promisify(brotliCompress);
const gzip = promisify(gzipCallback);

function currentCommit() {
  if (process.env.GIT_COMMIT) return process.env.GIT_COMMIT;
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return 'unknown';
  }
}

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((entry) => newestMtime(join(path, entry))));
}

/** What is worth compressing: text the browser downloads (images and fonts are compressed already; source maps only devtools fetch). */
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.wasm', '.webmanifest']);

/**
 * Above this size `npm start` compresses with brotli 10 instead of 11: half the time, about 2 % larger
 * (the 290 KB entry chunk: 0.8 s against 0.4 s, 78.3 KB against 79.8 KB). `npm run build` (images,
 * releases) keeps 11 everywhere.
 */
const FAST_BROTLI_ABOVE = 64 * 1024;

/** The compressible files of the built web client (1 KiB and more) whose `.br` or `.gz` is missing or older. */
function compressionWork(dir, fast) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return compressionWork(path, fast);
    if (!COMPRESSIBLE.has(extname(entry.name))) return [];
    const stat = statSync(path);
    if (stat.size < 1024) return [];
    const quality = fast && stat.size > FAST_BROTLI_ABOVE ? 10 : 11;
    return [
      ['.br', (body) => ({ params: { [zlib.BROTLI_PARAM_QUALITY]: quality, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } })],
      ['.gz', () => ({ level: 9 })],
    ]
      .filter(([suffix]) => !existsSync(path + suffix) || statSync(path + suffix).mtimeMs < stat.mtimeMs)
      .map(([suffix, options]) => ({ path, suffix, options }));
  });
}

/**
 * Writes `file.br` (brotli 11) and `file.gz` (gzip -9) beside each compressible file of the built
 * web client that lacks them or is newer, so the gateway serves them as they are (no compression per
 * request). Files under 1 KiB are left alone: the headers would cost more than they save.
 */
export function precompress(dir) {
  const work = compressionWork(dir, false);
  for (const { path, suffix, options } of work) {
    const body = readFileSync(path);
    writeFileSync(path + suffix, suffix === '.br' ? brotliCompressSync(body, options(body)) : gzipSync(body, options(body)));
  }
  return work.length;
}

/** The same for `npm start`, on libuv's threads (all cores, the boot goes on meanwhile), brotli 10 for large files. */
export async function precompressInBackground(dir) {
  const work = compressionWork(dir, true);
  await Promise.all(
    work.map(async ({ path, suffix, options }) => {
      const body = await readFile(path);
      await writeFile(path + suffix, await (suffix === '.br' ? brotli(body, options(body)) : gzip(body, options(body))));
    }),
  );
  return work.length;
}

export function build({ quiet = false } = {}) {
  checkToolchain();
  const log = (line) => quiet || console.log(line);
  log('Compiling the services and libraries...');
  runBin('typescript', 'bin/tsc', ['-b', 'tsconfig.build.json']);
  finish(log, quiet);
}

/**
 * `npm start`'s build: the services and libraries transpiled by SWC (only what changed, no type
 * check: scripts/transpile.mjs); the web client, when it changed, built by Vite in a child process
 * and compressed on libuv's threads. Answers once the services are written, with `web`: the promise
 * of the client, which the boot waits for only before the gateway (the two overlap).
 */
export async function buildForStart({ quiet = false } = {}) {
  checkToolchain();
  const log = (line) => quiet || console.log(line);
  const { transpileProjects } = await import('./transpile.mjs');
  const started = Date.now();
  const written = await transpileProjects();
  if (written > 0) log(`Compiled ${written} changed source files in ${seconds(started)} (types are checked by npm test).`);
  writeBuildInfo();
  const web = join(root, 'web');
  const client = (async () => {
    if (webChanged(web)) {
      const building = Date.now();
      log('Building the web client (meanwhile the services start)...');
      await new Promise((resolve, reject) => {
        const vite = spawn(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error'], {
          cwd: web,
          stdio: 'inherit',
        });
        vite.once('error', reject);
        vite.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the web client's build failed (exit code ${code})`))));
      });
      log(`Built the web client in ${seconds(building)}.`);
    }
    const compressing = Date.now();
    const files = await precompressInBackground(join(web, 'dist'));
    if (files > 0) log(`Compressed ${files} web files in ${seconds(compressing)}.`);
  })();
  client.catch(() => undefined); // reported by the boot that waits for it
  return { web: client };
}

const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

function writeBuildInfo() {
  const gatewayDist = join(root, 'services/gateway/dist');
  mkdirSync(gatewayDist, { recursive: true });
  writeFileSync(join(gatewayDist, 'build-info.json'), JSON.stringify({ commit: currentCommit(), built_at: new Date().toISOString() }));
}

function webChanged(web) {
  // The lockfile too: a dependency added or updated (a merge, an upgrade) changes what the bundle holds.
  const sources = Math.max(
    ...['src', 'public', 'index.html', 'vite.config.ts', 'package.json'].map((p) => newestMtime(join(web, p))),
    newestMtime(join(root, 'package-lock.json')),
  );
  return newestMtime(join(web, 'dist/index.html')) < sources || !!process.env.FORCE_WEB_BUILD;
}

/** What `build` does after the services: the commit the gateway reports, and the web client when it changed. */
function finish(log, quiet) {
  writeBuildInfo();
  const web = join(root, 'web');
  if (webChanged(web)) {
    log('Building the web client...');
    runBin('vite', 'bin/vite.js', ['build', '--logLevel', quiet ? 'error' : 'warn'], { cwd: web });
  }
  precompress(join(web, 'dist'));
}

if (import.meta.url === `file://${process.argv[1]}`) build();
