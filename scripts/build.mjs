#!/usr/bin/env node
// `npm run build`: compiles every project (incrementally) and the web client (when it changed),
// and records the commit the gateway reports at /api/v1/version/commit.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkToolchain, root, runBin } from './lib.mjs';

function currentCommit() {
  if (process.env.GIT_COMMIT) return process.env.GIT_COMMIT;
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
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

export function build({ quiet = false } = {}) {
  checkToolchain();
  const log = (line) => quiet || console.log(line);
  log('Compiling the services and libraries...');
  runBin('typescript', 'bin/tsc', ['-b', 'tsconfig.build.json']);
  const gatewayDist = join(root, 'services/gateway/dist');
  mkdirSync(gatewayDist, { recursive: true });
  writeFileSync(join(gatewayDist, 'build-info.json'), JSON.stringify({ commit: currentCommit(), built_at: new Date().toISOString() }));

  const web = join(root, 'web');
  const sources = Math.max(...['src', 'public', 'index.html', 'vite.config.ts', 'package.json'].map((p) => newestMtime(join(web, p))));
  const built = newestMtime(join(web, 'dist/index.html'));
  if (built < sources || process.env.FORCE_WEB_BUILD) {
    log('Building the web client...');
    runBin('vite', 'bin/vite.js', ['build', '--logLevel', quiet ? 'error' : 'warn'], { cwd: web });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) build();
