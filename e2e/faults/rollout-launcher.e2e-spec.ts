import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { until } from '../support/until';

/**
 * `npm run start:services` supervises the processes of the distributed mode (scripts/supervisor.mjs):
 * a process that exits is restarted with a growing back-off and the others go on; only a SIGTERM or
 * Ctrl-C of the launcher stops them, each given the time to finish. Driven here over small programs.
 */
const harness = join(__dirname, 'support/launcher-harness.mjs');

/** Serves until SIGTERM, then takes a moment to finish its work and exits 0. */
const steady = `
  console.log('steady up ' + process.pid);
  process.on('SIGTERM', () => { console.log('steady finishing its work'); setTimeout(() => process.exit(0), 200); });
  setInterval(() => {}, 1000);`;
/** Crashes shortly after each start. */
const crashing = `console.log('crashing up'); setTimeout(() => process.exit(3), 50);`;
/** Ignores SIGTERM. */
const stubborn = `console.log('stubborn up'); process.on('SIGTERM', () => console.log('stubborn ignores SIGTERM')); setInterval(() => {}, 1000);`;

function launch(programs: { name: string; script: string }[]) {
  const child = spawn(process.execPath, [harness, JSON.stringify(programs)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

describe('the launcher of the distributed mode (npm run start:services)', () => {
  it('restarts a process that exits, with a back-off that grows to its cap, and keeps the others running', async () => {
    const launcher = launch([
      { name: 'steady', script: steady },
      { name: 'crashing', script: crashing },
    ]);
    try {
      await until(
        'five restarts of the crashing process',
        () => (launcher.output().match(/crashing exited with code 3/g) ?? []).length >= 5,
        20_000,
      );
      const waits = [
        ...launcher.output().matchAll(/crashing exited with code 3 after .*?; restarting it in (\d+) ms \(restart (\d+)\)/g),
      ].map((m) => Number(m[1]));
      expect(waits.slice(0, 5)).toEqual([100, 200, 400, 400, 400]);
      // The steady process was never touched.
      expect(launcher.output().match(/steady up/g)).toHaveLength(1);

      // Killed from outside (a crash, the OOM killer): it comes back.
      const pid = Number(/steady up (\d+)/.exec(launcher.output())![1]);
      process.kill(pid, 'SIGKILL');
      await until('the steady process restarted', () => (launcher.output().match(/steady up/g) ?? []).length === 2, 10_000);
      expect(launcher.output()).toMatch(/steady was killed by SIGKILL after .*; restarting it in 100 ms \(restart 1\)/);
    } finally {
      launcher.child.kill('SIGTERM');
    }
    expect(await launcher.exited).toBe(0);
    expect(launcher.output()).toContain('steady finishing its work');
    expect(launcher.output()).toContain('[supervisor] every process stopped cleanly');
  }, 40_000);

  it('on SIGTERM stops every process, waits for each, kills one that will not stop, and says so', async () => {
    const launcher = launch([
      { name: 'steady', script: steady },
      { name: 'stubborn', script: stubborn },
    ]);
    await until('both up', () => launcher.output().includes('steady up') && launcher.output().includes('stubborn up'), 10_000);
    launcher.child.kill('SIGTERM');
    expect(await launcher.exited).toBe(1);
    const output = launcher.output();
    expect(output).toContain('steady finishing its work');
    expect(output).toContain('stubborn ignores SIGTERM');
    expect(output).toMatch(/stubborn is still running 2 s after SIGTERM; killing it/);
    expect(output).toContain('[supervisor] stopped; not cleanly: stubborn (SIGKILL)');
    // Nothing was restarted while stopping.
    expect(output).not.toContain('restarting it');
  }, 20_000);
});
