// A small process supervisor for `npm run start:services` (the distributed mode on one machine):
// it keeps every process running the way systemd or Kubernetes would, and stops them all cleanly.
import { spawn } from 'node:child_process';

const seconds = (ms) => (ms < 1_000 ? `${ms} ms` : `${(ms / 1_000).toFixed(ms % 1_000 ? 1 : 0)} s`);

/**
 * Runs programs and restarts one that exits on its own, after a back-off that doubles from
 * `minBackoffMs` up to `maxBackoffMs` (and starts over once a run has lasted `resetAfterMs`),
 * saying so on the console. `stop()` sends SIGTERM to every program, waits for each to finish its
 * work and exit (SIGKILL after `killAfterMs`), and nothing is restarted any more.
 */
export class Supervisor {
  #programs = new Map();
  #stopping = false;

  constructor({
    minBackoffMs = 1_000,
    maxBackoffMs = 30_000,
    resetAfterMs = 60_000,
    killAfterMs = 35_000,
    stdio = 'inherit',
    log = (line) => console.error(line),
  } = {}) {
    Object.assign(this, { minBackoffMs, maxBackoffMs, resetAfterMs, killAfterMs, stdio, log });
  }

  /** Starts a program under supervision. */
  add(name, command, args = [], env = {}) {
    const program = {
      name,
      command,
      args,
      env,
      child: undefined,
      backoffMs: this.minBackoffMs,
      restarts: 0,
      startedAt: 0,
      timer: undefined,
    };
    this.#programs.set(name, program);
    this.#spawn(program);
  }

  #spawn(program) {
    program.startedAt = Date.now();
    const child = spawn(program.command, program.args, { stdio: this.stdio, env: { ...process.env, ...program.env } });
    program.child = child;
    let gone = false;
    const onGone = (code, signal) => {
      if (gone) return;
      gone = true;
      program.child = undefined;
      if (this.#stopping) return;
      const ranMs = Date.now() - program.startedAt;
      if (ranMs >= this.resetAfterMs) program.backoffMs = this.minBackoffMs;
      const waitMs = program.backoffMs;
      program.backoffMs = Math.min(program.backoffMs * 2, this.maxBackoffMs);
      program.restarts++;
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      this.log(
        `[supervisor] ${program.name} ${how} after ${seconds(ranMs)}; restarting it in ${seconds(waitMs)} (restart ${program.restarts})`,
      );
      program.timer = setTimeout(() => {
        program.timer = undefined;
        if (!this.#stopping) this.#spawn(program);
      }, waitMs);
    };
    child.once('exit', onGone);
    child.once('error', (error) => {
      this.log(`[supervisor] ${program.name} could not run: ${error.message}`);
      onGone(null, null);
    });
    if (child.pid) this.log(`[supervisor] ${program.name} started (pid ${child.pid})`);
  }

  /** Stops every program; resolves with how each ended (`clean`: exited 0 on its own after the signal). */
  async stop(signal = 'SIGTERM') {
    this.#stopping = true;
    const results = [];
    await Promise.all(
      [...this.#programs.values()].map((program) => {
        clearTimeout(program.timer);
        const child = program.child;
        if (!child) return undefined;
        return new Promise((resolve) => {
          const killer = setTimeout(() => {
            this.log(`[supervisor] ${program.name} is still running ${seconds(this.killAfterMs)} after ${signal}; killing it`);
            child.kill('SIGKILL');
          }, this.killAfterMs);
          child.once('exit', (code, exitSignal) => {
            clearTimeout(killer);
            results.push({ name: program.name, code, signal: exitSignal, clean: code === 0 });
            resolve();
          });
          child.kill(signal);
        });
      }),
    );
    return results;
  }
}

/**
 * Supervises until the launcher gets SIGINT (Ctrl-C) or SIGTERM: then every program is stopped
 * (each finishes its work in flight first) and the launcher exits, 0 if all stopped cleanly.
 */
export function superviseUntilSignalled(supervisor, log = (line) => console.error(line)) {
  let stopping = false;
  const onSignal = (signal) => {
    if (stopping) return;
    stopping = true;
    log(`[supervisor] ${signal}: stopping every process (each finishes what it is doing first)`);
    supervisor.stop('SIGTERM').then((results) => {
      const unclean = results.filter((r) => !r.clean);
      log(
        unclean.length
          ? `[supervisor] stopped; not cleanly: ${unclean.map((r) => `${r.name} (${r.signal ?? `code ${r.code}`})`).join(', ')}`
          : '[supervisor] every process stopped cleanly',
      );
      process.exit(unclean.length ? 1 : 0);
    });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
