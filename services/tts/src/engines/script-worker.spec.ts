import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { FliteWorker, type FliteJob } from './flite-worker';

const ROOT = join(__dirname, '../../../..');
const JOB: FliteJob = { text: 'Hello there.', voice: 'slt', pitch: null, stretch: 1 };

/**
 * A process that has not ended by then hangs (what these tests look for). Generous: the fresh
 * process compiles the TypeScript sources it loads, which took over 30 s on a loaded 2-core machine.
 */
const HANG_MS = 120_000;

/** Runs `code` in a fresh Node process (TypeScript sources loaded as Jest loads them) and says how it ended. */
function runAlone(code: string): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  const { NODE_OPTIONS: _ignored, ...env } = process.env;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['-r', join(ROOT, 'e2e/support/ts-register.cjs'), '-e', code],
      { cwd: ROOT, env, timeout: HANG_MS, killSignal: 'SIGKILL' },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, signal: error?.signal ?? null, stdout, stderr }),
    );
  });
}

describe('ScriptWorker (Flite in a worker thread)', () => {
  it('refuses to speak once closed, and starts no worker for it', async () => {
    const flite = new FliteWorker(24_000);
    await flite.close();
    await expect(flite.run(JOB)).rejects.toThrow('The flite worker is closed');
  });

  it(
    'never keeps a process alive: a worker that was used and never closed lets it exit',
    async () => {
      const ended = await runAlone(`
      const { FliteWorker } = require('./services/tts/src/engines/flite-worker.ts');
      const busy = setInterval(() => undefined, 1000);
      new FliteWorker(24000).run(${JSON.stringify(JOB)}).then((samples) => {
        clearInterval(busy);
        console.log('spoke ' + samples.length);
      });
    `);
      expect(ended).toMatchObject({ code: 0, signal: null });
      expect(ended.stdout).toMatch(/^spoke [1-9]\d+/);
    },
    HANG_MS + 30_000,
  );

  it(
    'lets a process exit when the service closes between two rounds of the warm-up',
    async () => {
      // The warm-up speaks up to four times; the shutdown comes right after its first round.
      const ended = await runAlone(`
      const { FliteVoice } = require('./services/tts/src/engines/offline-voices.ts');
      const { OfflineSpeechEngine } = require('./services/tts/src/engines/offline.engine.ts');
      const flite = new FliteVoice(2);
      let rounds = 0;
      const engine = new OfflineSpeechEngine({
        model: 'flite',
        concurrency: 2,
        describe: (voice) => flite.describe(voice),
        speak: async (line) => {
          rounds += 1;
          const result = await flite.speak(line);
          if (rounds === 1) await engine.close();
          return result;
        },
        close: () => flite.close(),
      });
      const busy = setInterval(() => undefined, 1000);
      engine.warmUp().catch((error) => console.log('warm-up ended: ' + error.message)).finally(() => clearInterval(busy));
    `);
      expect(ended).toMatchObject({ code: 0, signal: null });
    },
    HANG_MS + 30_000,
  );
});
