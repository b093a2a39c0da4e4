import { sanitiseFilename } from './file-names';

describe('file name sanitising', () => {
  it.each([
    ['../../etc/passwd', 'passwd'],
    ['..\\..\\Windows\\system32\\cmd.exe', 'cmd.exe'],
    ['/absolute/path/report.pdf', 'report.pdf'],
    ['a\u0000b.txt', 'ab.txt'],
    ['line\nbreak\r.txt', 'linebreak.txt'],
    ['invoice\u202Efdp.exe', 'invoicefdp.exe'],
    ['zero\u200bwidth\ufeff.png', 'zerowidth.png'],
    ['iso\u2066late\u2069.txt', 'isolate.txt'],
    ['what?<>:"|*.txt', 'what_______.txt'],
    ['  .hidden  ', 'hidden'],
    ['..', 'file'],
    ['', 'file'],
    ['CON.txt', '_CON.txt'],
    ['lpt1', '_lpt1'],
    ['tabs\tand   spaces.md', 'tabs and spaces.md'],
    ['e\u0301te\u0301.txt', 'été.txt'],
    ['photo.jpg', 'photo.jpg'],
  ])('%j becomes %j', (raw, expected) => {
    expect(sanitiseFilename(raw)).toBe(expected);
  });

  it('cuts long names to 200 characters, keeping the extension', () => {
    const cut = sanitiseFilename(`${'n'.repeat(500)}.pdf`);
    expect(cut).toHaveLength(200);
    expect(cut.endsWith('n.pdf')).toBe(true);
    expect([...sanitiseFilename('😀'.repeat(300))]).toHaveLength(200);
    expect(sanitiseFilename(`${'a'.repeat(250)}.${'b'.repeat(40)}`)).toHaveLength(200);
  });

  it('uses the fallback when nothing is left', () => {
    expect(sanitiseFilename(null)).toBe('file');
    expect(sanitiseFilename('\u202e\u0000', 'image')).toBe('image');
  });
});
