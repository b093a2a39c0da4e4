import { TTS } from './constants';

/** Signed 16-bit little-endian mono PCM to samples in [-1, 1]. */
export function pcmToFloat32(bytes: ArrayBuffer): Float32Array<ArrayBuffer> {
  const view = new DataView(bytes);
  const count = Math.floor(bytes.byteLength / 2);
  const samples = new Float32Array(count);
  for (let i = 0; i < count; i += 1) samples[i] = view.getInt16(i * 2, true) / 32768;
  return samples;
}

/** Below this the audio is silence: it is not amplified. */
const SILENCE = 1e-4;

/** Scales the samples in place so the loudest is at `peak` (0.8 by default); answers the gain used. */
export function normalizePeak(channels: Float32Array[], peak: number = TTS.peak): number {
  let max = 0;
  for (const samples of channels) {
    for (let i = 0; i < samples.length; i += 1) {
      const value = Math.abs(samples[i]!);
      if (value > max) max = value;
    }
  }
  if (max < SILENCE) return 1;
  const gain = peak / max;
  for (const samples of channels) for (let i = 0; i < samples.length; i += 1) samples[i]! *= gain;
  return gain;
}

/** The sample rate of a `audio/pcm;rate=24000;channels=1` content type (24,000 when absent). */
export function pcmRateOf(contentType: string | null): number {
  const rate = Number(/rate=(\d+)/i.exec(contentType ?? '')?.[1]);
  return Number.isFinite(rate) && rate > 0 ? rate : TTS.pcmSampleRate;
}

export const isPcm = (contentType: string | null) => (contentType ?? 'audio/pcm').toLowerCase().startsWith('audio/pcm');
