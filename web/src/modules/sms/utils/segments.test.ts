import { describe, expect, it } from 'vitest';
import { countSegments } from './segments';

describe('countSegments', () => {
  it('counts GSM-7: 160 in one text, 153 per part after', () => {
    expect(countSegments('')).toMatchObject({ encoding: 'GSM-7', segments: 0 });
    expect(countSegments('a'.repeat(160))).toMatchObject({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(countSegments('a'.repeat(161))).toMatchObject({ segments: 2, perSegment: 153 });
    expect(countSegments('a'.repeat(306))).toMatchObject({ segments: 2 });
    expect(countSegments('a'.repeat(307))).toMatchObject({ segments: 3 });
  });

  it('counts extension characters twice and never splits one', () => {
    expect(countSegments('€'.repeat(80))).toMatchObject({ encoding: 'GSM-7', units: 160, segments: 1 });
    // 152 septets then a two-septet character: it moves to the next part.
    expect(countSegments(`${'a'.repeat(152)}€${'a'.repeat(10)}`)).toMatchObject({ units: 164, segments: 2 });
    expect(countSegments(`${'a'.repeat(152)}€${'a'.repeat(152)}`)).toMatchObject({ units: 306, segments: 3 });
  });

  it('falls back to UCS-2 for anything outside GSM-7: 70, then 67 per part, emoji as two units', () => {
    expect(countSegments('é')).toMatchObject({ encoding: 'GSM-7' });
    expect(countSegments('ç'.repeat(70))).toMatchObject({ encoding: 'UCS-2', units: 70, segments: 1 });
    expect(countSegments('ç'.repeat(71))).toMatchObject({ encoding: 'UCS-2', segments: 2, perSegment: 67 });
    expect(countSegments('😀'.repeat(35))).toMatchObject({ encoding: 'UCS-2', units: 70, segments: 1 });
    // 66 units then a pair: the pair goes whole into the next part.
    expect(countSegments(`${'ж'.repeat(66)}😀${'ж'.repeat(3)}`)).toMatchObject({ units: 71, segments: 2 });
  });
});
