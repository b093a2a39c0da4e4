import { highlightsOf, maskNumber } from './groups/group-text';
import { keywordOf } from './keywords';
import { formatForPhone } from './phone-format';
import { countSegments, fitToSegments } from './segments';

describe('SMS segments', () => {
  it('counts GSM-7: 160 in one segment, 153 per segment beyond', () => {
    expect(countSegments('a'.repeat(160))).toEqual({ encoding: 'GSM-7', segments: 1, units: 160 });
    expect(countSegments('a'.repeat(161))).toEqual({ encoding: 'GSM-7', segments: 2, units: 161 });
    expect(countSegments('a'.repeat(306)).segments).toBe(2);
    expect(countSegments('a'.repeat(307)).segments).toBe(3);
  });

  it('counts an extension character as two septets and never splits its escape', () => {
    expect(countSegments('€'.repeat(80))).toEqual({ encoding: 'GSM-7', segments: 1, units: 160 });
    expect(countSegments('€'.repeat(81)).segments).toBe(2);
    // 152 plain then one escape pair: 154 septets do not fit in 153, the pair moves whole to segment 2.
    expect(countSegments(`${'a'.repeat(152)}[${'a'.repeat(10)}`)).toEqual({ encoding: 'GSM-7', segments: 2, units: 164 });
  });

  it('counts UCS-2: 70 in one segment, 67 beyond, a surrogate pair as two units never split', () => {
    expect(countSegments('é'.repeat(70)).encoding).toBe('GSM-7');
    expect(countSegments('ж'.repeat(70))).toEqual({ encoding: 'UCS-2', segments: 1, units: 70 });
    expect(countSegments('ж'.repeat(71)).segments).toBe(2);
    expect(countSegments('😀'.repeat(35))).toEqual({ encoding: 'UCS-2', segments: 1, units: 70 });
    expect(countSegments('😀'.repeat(36)).segments).toBe(2);
    // 66 units then a pair: 68 > 67, so the pair starts segment 2.
    expect(countSegments(`${'ж'.repeat(66)}😀${'ж'.repeat(3)}`).segments).toBe(2);
    expect(countSegments('ж'.repeat(134)).segments).toBe(2);
    expect(countSegments('ж'.repeat(135)).segments).toBe(3);
  });

  it('cuts a long text to the segment limit with an ellipsis that keeps its encoding', () => {
    const gsm = fitToSegments('word '.repeat(200), 2);
    expect(countSegments(gsm)).toMatchObject({ encoding: 'GSM-7', segments: 2 });
    expect(gsm.endsWith('word...')).toBe(true);
    const ucs = fitToSegments('слово '.repeat(100), 2);
    expect(countSegments(ucs)).toMatchObject({ encoding: 'UCS-2', segments: 2 });
    expect(ucs.endsWith('слово...')).toBe(true);
    expect(fitToSegments('short', 1)).toBe('short');
  });
});

describe('phone formatting and keywords', () => {
  it('strips markdown and keeps links plain', () => {
    expect(formatForPhone('# Title\n\n**Bold** and _it_ and `code`\n\n* one\n* two\n\nSee [the docs](https://x.example/a_b).')).toBe(
      'Title\n\nBold and it and code\n\n- one\n- two\n\nSee the docs (https://x.example/a_b).',
    );
    expect(formatForPhone('[https://x.example](https://x.example) ![img](https://i.example/p.png)')).toBe('https://x.example');
    expect(formatForPhone('```ts\nconst a = 1;\n```')).toBe('const a = 1;');
  });

  it('recognises keywords in any case with spaces and punctuation, and only as the whole text', () => {
    expect(keywordOf(' Stop! ')).toEqual({ keyword: 'stop', word: 'STOP' });
    expect(keywordOf('opt-out')).toEqual({ keyword: 'stop', word: 'OPTOUT' });
    for (const word of ['stopall', 'UNSUBSCRIBE', 'cancel', 'end', 'quit', 'revoke']) expect(keywordOf(word)?.keyword).toBe('stop');
    expect(keywordOf('unstop.')?.keyword).toBe('start');
    expect(keywordOf('yes')?.keyword).toBe('start');
    expect(keywordOf('Info?')?.keyword).toBe('help');
    expect(keywordOf('stop talking')).toBeNull();
  });

  it('masks numbers and finds highlight offsets', () => {
    expect(maskNumber('+14155550123')).toBe('+1******0123');
    expect(highlightsOf('Packing for Porto: porto wine', 'porto')).toEqual([
      { start: 12, end: 17 },
      { start: 19, end: 24 },
    ]);
  });
});
