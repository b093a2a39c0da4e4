import { parseWav, rms, samplesOf } from '@app/testing';
import { pcmBytes, resample, wavOf } from './pcm';

describe('PCM helpers', () => {
  it('resamples 22,050 Hz to 24,000 Hz keeping the duration and the shape of the wave', () => {
    const from = 22_050;
    const tone = Int16Array.from({ length: from }, (_, i) => Math.round(10_000 * Math.sin((2 * Math.PI * 440 * i) / from)));
    const out = resample(tone, from, 24_000);
    expect(out.length).toBe(24_000);
    // The same 440 Hz sine, sampled at the new rate (linear interpolation: within a few percent of the peak).
    for (const i of [0, 1_000, 12_345, 23_999])
      expect(Math.abs(out[i] - 10_000 * Math.sin((2 * Math.PI * 440 * i) / 24_000))).toBeLessThan(400);
    expect(rms(out)).toBeGreaterThan(6_900);
    expect(resample(tone, 24_000, 24_000)).toBe(tone);
    expect(resample(new Int16Array(0), 22_050, 24_000)).toHaveLength(0);
  });

  it('writes a WAV that reads back as the same 16-bit mono samples', () => {
    const samples = Int16Array.from([0, 1, -1, 32_767, -32_768, 1234]);
    const wav = wavOf(pcmBytes(samples), 24_000);
    expect(wav.length).toBe(44 + 12);
    const decoded = parseWav(wav);
    expect(decoded).toMatchObject({ sampleRate: 24_000, channels: 1, bitsPerSample: 16 });
    expect(Array.from(decoded.samples)).toEqual(Array.from(samples));
    expect(Array.from(samplesOf(pcmBytes(samples)))).toEqual(Array.from(samples));
  });

  it('refuses what is not a 16-bit PCM WAV', () => {
    expect(() => parseWav(Buffer.from('ID3 not a wav at all'))).toThrow('Not a RIFF/WAVE file');
    const float = wavOf(Buffer.alloc(8), 24_000);
    float.writeUInt16LE(3, 20);
    expect(() => parseWav(float)).toThrow('Not 16-bit PCM');
  });

  it('measures loudness: silence is 0', () => {
    expect(rms(new Int16Array(100))).toBe(0);
    expect(rms(Int16Array.from([3, -3, 3, -3]))).toBe(3);
  });
});
