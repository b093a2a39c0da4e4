/** Signed 16-bit little-endian mono PCM, the product's audio (24,000 Hz by default, spec 9). */

/**
 * Resamples mono 16-bit samples to another rate by linear interpolation (speech from 22,050 Hz
 * to 24,000 Hz: an upsampling, which adds no aliasing of its own).
 */
export function resample(samples: Int16Array, fromRate: number, toRate: number): Int16Array {
  if (fromRate === toRate || samples.length === 0) return samples;
  const length = Math.max(1, Math.round((samples.length * toRate) / fromRate));
  const out = new Int16Array(length);
  const step = fromRate / toRate;
  const last = samples.length - 1;
  for (let i = 0; i < length; i++) {
    const position = i * step;
    const index = Math.floor(position);
    if (index >= last) {
      out[i] = samples[last];
      continue;
    }
    const fraction = position - index;
    out[i] = Math.round(samples[index] + (samples[index + 1] - samples[index]) * fraction);
  }
  return out;
}

/** The samples as little-endian bytes (a copy only where the platform is big-endian, which Node's are not). */
export function pcmBytes(samples: Int16Array): Buffer {
  return Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
}

/** A RIFF/WAVE file (PCM, 16-bit, mono) around raw PCM bytes: the platform's, named here beside the parser. */
export { wavOf } from '@app/platform';
