import { pathToFileURL } from 'node:url';
import { ScriptWorker } from './script-worker';

/** The optional package (not in package.json: see the README's licence section). */
export const ESPEAK_PACKAGE = '@echogarden/espeak-ng-emscripten';

/** One synthesis in the worker: samples at the engine's rate (22,050 Hz for espeak-ng). */
export interface EspeakResult {
  samples: Int16Array;
  sampleRate: number;
}

export interface EspeakJob {
  text: string;
  /** An espeak-ng voice, with its variant: `gmw/en-US+f2`. */
  voice: string;
  /** Words per minute (80..450). */
  rate: number;
  /** 0..100, 50 is the voice's own. */
  pitch: number;
}

/**
 * The worker's code (plain JavaScript, run by worker_threads from a string so that it needs no
 * file of its own in the build): it loads the espeak-ng Emscripten module once and answers jobs in
 * order. Synthesis is synchronous WebAssembly, so it runs here and never blocks the service's event loop.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
let engine;
const ready = import(workerData.moduleUrl).then(async (loaded) => {
  const module = await loaded.default();
  engine = new module.eSpeakNGWorker();
});
let queue = Promise.resolve();
parentPort.on('message', (job) => {
  queue = queue.then(async () => {
    try {
      await ready;
      const code = engine.set_voice(job.voice);
      if (code !== 0) throw new Error('espeak-ng has no voice ' + job.voice + ' (' + code + ')');
      engine.set_rate(job.rate);
      engine.set_pitch(job.pitch);
      const parts = [];
      let length = 0;
      engine.synthesize(job.text, (samples) => {
        if (samples && samples.length) { parts.push(samples); length += samples.length; }
        return false;
      });
      const out = new Int16Array(length);
      let at = 0;
      for (const part of parts) { out.set(part, at); at += part.length; }
      parentPort.postMessage({ id: job.id, result: { samples: out, sampleRate: engine.get_samplerate() } }, [out.buffer]);
    } catch (error) {
      parentPort.postMessage({ id: job.id, error: String((error && error.message) || error) });
    }
  });
});
`;

/**
 * espeak-ng (the `@echogarden/espeak-ng-emscripten` build, GPL-3.0-or-later: not a dependency of the
 * product, an operator installs it on purpose for TTS_OFFLINE_VOICE=espeak-ng) in a worker thread.
 */
export class EspeakWorker extends ScriptWorker<EspeakJob, EspeakResult> {
  constructor() {
    super('espeak-ng', WORKER_SOURCE, () => ({ moduleUrl: pathToFileURL(require.resolve(ESPEAK_PACKAGE)).href }));
  }

  synthesize(job: EspeakJob): Promise<EspeakResult> {
    return this.run(job);
  }
}
