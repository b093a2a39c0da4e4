// Helpers shared by the root scripts (build, start, test, bench).
import { spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
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
