import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accepts, freePort } from './processes';

export const NATS_SERVER_BIN = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';

/** Whether this machine has a nats-server binary a test can start and kill on its own. */
export const haveNatsServer = () => existsSync(NATS_SERVER_BIN);

/**
 * A NATS server with JetStream that belongs to one test: its own port and store directory, so the
 * test can stop it (SIGTERM, as an upgrade does) and start it again on the same port and store.
 */
export class OwnNatsServer {
  private child?: ChildProcess;
  private exited?: Promise<void>;
  private output = '';

  private constructor(
    readonly port: number,
    readonly storeDir: string,
  ) {}

  static async start(): Promise<OwnNatsServer> {
    const server = new OwnNatsServer(await freePort(), mkdtempSync(join(tmpdir(), 'fault-nats-')));
    await server.startAgain();
    return server;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  /** The server's last lines of output (its log). */
  get log(): string {
    return this.output;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async startAgain(): Promise<void> {
    const child = spawn(NATS_SERVER_BIN, ['-js', '-a', '127.0.0.1', '-p', String(this.port), '-sd', this.storeDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout!.on('data', (chunk: Buffer) => (this.output = (this.output + chunk.toString()).slice(-20_000)));
    child.stderr!.on('data', (chunk: Buffer) => (this.output = (this.output + chunk.toString()).slice(-20_000)));
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    for (let i = 0; i < 200; i++) {
      if (child.exitCode !== null) throw new Error(`nats-server exited at start:\n${this.output}`);
      if (await accepts(this.port)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`nats-server did not listen on ${this.port}:\n${this.output}`);
  }

  /** Stops the server the way an upgrade does (SIGTERM; SIGKILL if it lingers) and waits for it to be gone. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await this.exited;
    clearTimeout(timer);
  }

  async close(): Promise<void> {
    await this.stop();
    rmSync(this.storeDir, { recursive: true, force: true });
  }
}
