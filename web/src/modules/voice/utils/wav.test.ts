import { describe, expect, it } from 'vitest';
import { downsample, RECORDING, recordingOf, wavOf } from './wav';

const header = (bytes: ArrayBuffer) => {
  const view = new DataView(bytes);
  const text = (at: number) => String.fromCharCode(...new Uint8Array(bytes, at, 4));
  return {
    riff: text(0),
    wave: text(8),
    format: view.getUint16(20, true),
    channels: view.getUint16(22, true),
    sampleRate: view.getUint32(24, true),
    bits: view.getUint16(34, true),
    dataBytes: view.getUint32(40, true),
  };
};

describe('the recording voice mode sends', () => {
  it('is a 16 kHz mono 16-bit PCM WAV, whatever rate the microphone runs at', async () => {
    // One second at 48 kHz: a 440 Hz tone.
    const second = new Float32Array(48_000).map((_, i) => 0.5 * Math.sin((2 * Math.PI * 440 * i) / 48_000));
    const blob = recordingOf([second.subarray(0, 20_000), second.subarray(20_000)], 48_000);
    expect(blob.type).toBe('audio/wav');
    expect(RECORDING).toMatchObject({ sampleRate: 16_000, channels: 1 });
    const bytes = await blob.arrayBuffer();
    expect(header(bytes)).toEqual({ riff: 'RIFF', wave: 'WAVE', format: 1, channels: 1, sampleRate: 16_000, bits: 16, dataBytes: 32_000 });
    // The tone survives (its loudness about the same), at a third of the samples.
    const samples = new Int16Array(bytes, 44);
    const peak = Math.max(...Array.from(samples).map(Math.abs)) / 32768;
    expect(peak).toBeGreaterThan(0.45);
    expect(peak).toBeLessThan(0.51);
  });

  it('averages what each new sample stands for, and clips what is out of range', () => {
    expect(Array.from(downsample(new Float32Array([1, 0, 0.5, 0.5, -1, -1]), 48_000, 16_000))).toEqual([0.5, -1 / 2]);
    expect(Array.from(downsample(new Float32Array([0.25, 0.5]), 16_000, 16_000))).toEqual([0.25, 0.5]);
    const clipped = new Int16Array(wavOf(new Float32Array([2, -2, 0]), 16_000), 44);
    expect(Array.from(clipped)).toEqual([32767, -32768, 0]);
  });
});
