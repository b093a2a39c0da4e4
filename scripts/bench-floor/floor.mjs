// Starts the floor (floor-server.mjs) in a process of its own, as the product's benches measure it:
// its URL (the clients of bench-load.mjs post to it as to the product), the CPU it has used so far,
// and a stop. `databaseUrl` makes it the bare start (one INSERT before the model request);
// `profileDir` writes its CPU profile there when it stops.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export async function spawnFloor({ modelUrl, databaseUrl, profileDir }) {
  const child = fork(fileURLToPath(new URL('./floor-server.mjs', import.meta.url)), [], {
    env: { ...process.env, FLOOR_MODEL_URL: modelUrl, ...(databaseUrl ? { FLOOR_DATABASE_URL: databaseUrl } : {}) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // A CPU profile of the floor's whole life, written when it stops (to compare with the product's).
    execArgv: profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir, '--cpu-prof-interval', '1000'] : [],
  });
  const next = (key) =>
    new Promise((resolve, reject) => {
      const onMessage = (message) => {
        if (!(key in message)) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message[key]);
      };
      const onExit = (code) => reject(new Error(`the floor process exited (${code})`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  const url = await next('ready');
  return {
    url,
    /** The floor process's CPU (process.cpuUsage) so far. */
    cpu: () => {
      const answer = next('cpu');
      child.send({ type: 'cpu' });
      return answer;
    },
    /** CPU µs the floor process used between two instants (epoch ms), from its samples. */
    cpuBetween: (from, to) => {
      const answer = next('cpuBetween');
      child.send({ type: 'cpuBetween', from, to });
      return answer;
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.disconnect();
      await exited;
    },
  };
}

/** CPU µs used between two process.cpuUsage() readings. */
export const cpuSpent = (before, after) => after.user - before.user + (after.system - before.system);

/**
 * This process's CPU, sampled every `intervalMs` (epoch ms, µs used so far), so that the CPU of a
 * window known only afterwards (from when every stream had started to the last delta) can be read:
 * `between(from, to)` interpolates. The sampler's own cost is one timer every `intervalMs`.
 */
export function sampleCpu(intervalMs = 20) {
  const samples = [];
  const take = () => {
    const { user, system } = process.cpuUsage();
    samples.push([performance.timeOrigin + performance.now(), user + system]);
    if (samples.length > 100_000) samples.splice(0, 50_000);
  };
  take();
  const timer = setInterval(take, intervalMs);
  timer.unref();
  const at = (t) => {
    take();
    let i = samples.findIndex(([when]) => when >= t);
    if (i === -1) return samples.at(-1)[1];
    if (i === 0) return samples[0][1];
    const [t0, c0] = samples[i - 1];
    const [t1, c1] = samples[i];
    return c0 + ((c1 - c0) * (t - t0)) / Math.max(1e-9, t1 - t0);
  };
  return { between: (from, to) => at(to) - at(from), stop: () => clearInterval(timer) };
}
