import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { accepts, freePort } from './processes';
import { until } from './until';

export const POSTGRES_BIN_DIR = process.env.POSTGRES_BIN_DIR ?? '/usr/lib/postgresql/15/bin';

/** Whether this machine has PostgreSQL's server binaries a test can run a cluster of its own with. */
export const havePostgresBinaries = () => existsSync(join(POSTGRES_BIN_DIR, 'initdb')) && existsSync(join(POSTGRES_BIN_DIR, 'pg_ctl'));

/** initdb and the server refuse to run as root: as root, they run as the `postgres` user. */
const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

function run(binary: string, args: string[]): void {
  const command = join(POSTGRES_BIN_DIR, binary);
  const result = asRoot
    ? spawnSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8' })
    : spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${binary} ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
}

/**
 * A PostgreSQL cluster that belongs to one test (its own data directory and port, trust auth, the
 * superuser `postgres`): stopped (`fast` as a restart does, `immediate` as a crash), started again
 * and made to refuse connections, without touching the machine's server.
 */
export class OwnPostgresCluster {
  private constructor(
    readonly port: number,
    readonly dataDir: string,
  ) {}

  static async start(): Promise<OwnPostgresCluster> {
    const dataDir = mkdtempSync(join(tmpdir(), 'fault-pg-'));
    if (asRoot) {
      const [uid, gid] = ['-u', '-g'].map((flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim()));
      chownSync(dataDir, uid, gid);
    }
    run('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
    const cluster = new OwnPostgresCluster(await freePort(), dataDir);
    await cluster.startAgain();
    return cluster;
  }

  /** A URL of this cluster (`postgres` database unless another is named). */
  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  async startAgain(): Promise<void> {
    run('pg_ctl', [
      '-D',
      this.dataDir,
      '-l',
      join(this.dataDir, 'server.log'),
      '-o',
      `-p ${this.port} -c listen_addresses=127.0.0.1 -k ${this.dataDir} -c fsync=off -c max_connections=40`,
      '-w',
      'start',
    ]);
    await until(`PostgreSQL listening on ${this.port}`, () => accepts(this.port), 30_000);
  }

  /** `fast`: as a restart or a failover (sessions ended, 57P01); `immediate`: as a crash. */
  stop(mode: 'fast' | 'immediate' = 'fast'): void {
    run('pg_ctl', ['-D', this.dataDir, '-m', mode, '-w', 'stop']);
  }

  /** Runs SQL as the superuser on `database`. */
  async sql(text: string, database = 'postgres'): Promise<unknown[]> {
    const client = new Client({ connectionString: this.url(database) });
    await client.connect();
    try {
      return (await client.query(text)).rows as unknown[];
    } finally {
      await client.end();
    }
  }

  async createDatabase(name: string): Promise<string> {
    await this.sql(`CREATE DATABASE "${name}"`);
    return this.url(name);
  }

  async close(): Promise<void> {
    try {
      this.stop('immediate');
    } catch {
      // Already stopped.
    }
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
