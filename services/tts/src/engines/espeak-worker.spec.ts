import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { EspeakWorker, type EspeakJob } from './espeak-worker';

const ROOT = join(__dirname, '../../../..');
const JOB: EspeakJob = { text: 'Hello there.', voice: 'gmw/en-US', rate: 175, pitch: 50 };

/** Runs `code` in a fresh Node process (TypeScript sources loaded as Jest loads them) and says how it ended. */
function runAlone(code: string): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  const { NODE_OPTIONS: _ignored, ...env } = process.env;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['-r', join(ROOT, 'e2e/support/ts-register.cjs'), '-e', code],
      { cwd: ROOT, env, timeout: 30_000, killSignal: 'SIGKILL' },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, signal: error?.signal ?? null, stdout, stderr }),
    );
  });
}

describe('EspeakWorker', () => {
  it('refuses to speak once closed, and starts no worker for it', async () => {
    const espeak = new EspeakWorker();
    await espeak.close();
    await expect(espeak.synthesize(JOB)).rejects.toThrow('The espeak-ng worker is closed');
  });

  it('never keeps a process alive: a worker that was used and never closed lets it exit', async () => {
    const ended = await runAlone(`
      const { EspeakWorker } = require('./services/tts/src/engines/espeak-worker.ts');
      const busy = setInterval(() => undefined, 1000);
      new EspeakWorker().synthesize(${JSON.stringify(JOB)}).then((r) => {
        clearInterval(busy);
        console.log('spoke ' + r.samples.length);
      });
    `);
    expect(ended).toMatchObject({ code: 0, signal: null });
    expect(ended.stdout).toMatch(/^spoke [1-9]\d+/);
  }, 40_000);

  it('lets a process exit when the service closes between two rounds of the warm-up', async () => {
    // The warm-up speaks up to four times; the shutdown comes right after its first round.
    const ended = await runAlone(`
      const { EspeakWorker } = require('./services/tts/src/engines/espeak-worker.ts');
      const { OfflineSpeechEngine } = require('./services/tts/src/engines/offline.engine.ts');
      const espeak = new EspeakWorker();
      let rounds = 0;
      const engine = new OfflineSpeechEngine({
        synthesize: async (job) => {
          rounds += 1;
          const result = await espeak.synthesize(job);
          if (rounds === 1) await engine.close();
          return result;
        },
        close: () => espeak.close(),
      });
      const busy = setInterval(() => undefined, 1000);
      engine.warmUp().catch((error) => console.log('warm-up ended: ' + error.message)).finally(() => clearInterval(busy));
    `);
    expect(ended).toMatchObject({ code: 0, signal: null });
  }, 40_000);
});
