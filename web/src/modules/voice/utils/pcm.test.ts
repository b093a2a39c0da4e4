import { describe, expect, it } from 'vitest';
import { isPcm, normalizePeak, pcmRateOf, pcmToFloat32 } from './pcm';
import { RequestIdLog } from './requestIds';

describe('PCM and loudness', () => {
  it('reads signed 16-bit little-endian samples', () => {
    const bytes = new ArrayBuffer(6);
    const view = new DataView(bytes);
    view.setInt16(0, 16384, true);
    view.setInt16(2, -32768, true);
    view.setInt16(4, 0, true);
    expect(Array.from(pcmToFloat32(bytes))).toEqual([0.5, -1, 0]);
  });

  it('brings the loudest sample to 0.8, louder or quieter, on every channel; silence stays silent', () => {
    const quiet = new Float32Array([0.1, -0.2, 0.05]);
    const gain = normalizePeak([quiet]);
    expect(gain).toBeCloseTo(4);
    expect(Math.max(...Array.from(quiet).map(Math.abs))).toBeCloseTo(0.8);
    const left = new Float32Array([1, -0.5]);
    const right = new Float32Array([-0.25, 0.5]);
    normalizePeak([left, right]);
    expect(Array.from(left)).toEqual([expect.closeTo(0.8), expect.closeTo(-0.4)]);
    expect(Array.from(right)).toEqual([expect.closeTo(-0.2), expect.closeTo(0.4)]);
    const silence = new Float32Array(4);
    expect(normalizePeak([silence])).toBe(1);
    expect(Array.from(silence)).toEqual([0, 0, 0, 0]);
  });

  it('reads the rate of the content type (24,000 by default)', () => {
    expect(pcmRateOf('audio/pcm;rate=16000;channels=1')).toBe(16000);
    expect(pcmRateOf('audio/pcm')).toBe(24000);
    expect(isPcm('audio/pcm;rate=24000;channels=1')).toBe(true);
    expect(isPcm('audio/wav')).toBe(false);
  });
});

describe('request ids', () => {
  it('keeps the last 3 per message', () => {
    const log = new RequestIdLog();
    for (const id of ['a', 'b', 'c', 'd']) log.add('m1', id);
    log.add('m2', 'x');
    log.add('m2', null);
    expect(log.of('m1')).toEqual(['b', 'c', 'd']);
    expect(log.of('m2')).toEqual(['x']);
    expect(log.of('m3')).toEqual([]);
  });
});
