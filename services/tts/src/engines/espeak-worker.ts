import { Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';

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
      parentPort.postMessage({ id: job.id, samples: out, sampleRate: engine.get_samplerate() }, [out.buffer]);
    } catch (error) {
      parentPort.postMessage({ id: job.id, error: String((error && error.message) || error) });
    }
  });
});
`;

type Pending = { resolve(result: EspeakResult): void; reject(error: Error): void };
type Reply = { id: number; samples?: Int16Array; sampleRate?: number; error?: string };

/** espeak-ng (the `@echogarden/espeak-ng-emscripten` build) in a worker thread, started on first use and restarted if it dies. */
export class EspeakWorker {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  private start(): Worker {
    if (this.worker) return this.worker;
    const moduleUrl = pathToFileURL(require.resolve('@echogarden/espeak-ng-emscripten')).href;
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { moduleUrl } });
    worker.on('message', (reply: Reply) => {
      const job = this.pending.get(reply.id);
      if (!job) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if (reply.error !== undefined || !reply.samples || !reply.sampleRate)
        job.reject(new Error(reply.error ?? 'espeak-ng answered nothing'));
      else job.resolve({ samples: reply.samples, sampleRate: reply.sampleRate });
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const job of this.pending.values()) job.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`The espeak-ng worker stopped (exit code ${code})`)));
    // After the listeners: adding a 'message' listener refs the worker's port again, and a ref'd
    // port keeps the process alive after everything else has closed. It is ref'd only while a job
    // is pending (a script waiting for speech must not exit under it: `synthesize`).
    worker.unref();
    this.worker = worker;
    return worker;
  }

  /** Refused once closed: a warm-up still looping at shutdown must not start a worker nobody stops. */
  synthesize(job: EspeakJob): Promise<EspeakResult> {
    if (this.closed) return Promise.reject(new Error('The espeak-ng worker is closed'));
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<EspeakResult>((resolve, reject) => {
      if (this.pending.size === 0) worker.ref();
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, ...job });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }
}
