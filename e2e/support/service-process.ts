import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '../..');

/** A service in a process of its own, run from its TypeScript sources (see ts-register.cjs). */
export class ServiceProcess {
  private output = '';
  /** Lines of the whole output containing each text `count` was asked about (`log` keeps only its end). */
  private readonly counted = new Map<string, number>();
  private readonly exited: Promise<number | null>;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    const take = (chunk: Buffer) => {
      const text = chunk.toString();
      this.output = (this.output + text).slice(-20_000);
      for (const [wanted, n] of this.counted) this.counted.set(wanted, n + text.split(wanted).length - 1);
    };
    child.stdout!.on('data', take);
    child.stderr!.on('data', take);
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  /** Starts `services/<name>/src/main.ts` and waits until it serves its subjects. */
  static async start(name: string, env: NodeJS.ProcessEnv, readyWithinMs = 60_000): Promise<ServiceProcess> {
    const child = spawn(process.execPath, ['-r', join(root, 'e2e/support/ts-register.cjs'), join(root, `services/${name}/src/main.ts`)], {
      cwd: root,
      // At info level: its "Serving" line says it is ready. Metrics on any free port: processes
      // side by side on one machine would all want 9464.
      env: { ...process.env, NODE_OPTIONS: '', LOG_FORMAT: 'json', METRICS_PORT: '0', ...env, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const service = new ServiceProcess(name, child);
    const deadline = Date.now() + readyWithinMs;
    while (!service.output.includes(`Serving ${name}.*`)) {
      if (child.exitCode !== null) throw new Error(`The ${name} service exited with ${child.exitCode}:\n${service.output}`);
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`The ${name} service did not start within ${readyWithinMs} ms:\n${service.output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return service;
  }

  get log(): string {
    return this.output;
  }

  /** From now on, counts how often `text` appears in the output; `count(text)` answers it. */
  watch(text: string): void {
    if (!this.counted.has(text)) this.counted.set(text, 0);
  }

  count(text: string): number {
    return this.counted.get(text) ?? 0;
  }

  /** Freezes the process (SIGSTOP: alive, connected, answering nothing, as a process stuck in a loop or swapped out). */
  freeze(): void {
    this.child.kill('SIGSTOP');
  }

  /** Lets a frozen process run again (SIGCONT). */
  thaw(): void {
    this.child.kill('SIGCONT');
  }

  /** Kills the process (SIGKILL: no shutdown hook runs, as in a crash or an OOM kill) and waits for it to be gone. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited;
  }
}
