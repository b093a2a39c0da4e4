import { looksLikeText, servingOf, sniffContent, Utf8TextChecker } from './content-sniffer';

const sniff = (bytes: number[] | Buffer, filename = 'f', declaredType?: string) =>
  sniffContent(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes), { filename, declaredType, complete: false });

describe('content sniffing', () => {
  it('knows the allowed types by their magic numbers, whatever the name or the claim', () => {
    expect(sniff([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0], 'x.txt', 'text/plain')).toEqual({ ok: true, type: 'image/png' });
    expect(sniff([0xff, 0xd8, 0xff, 0xe0, 0, 0x10], 'x.png', 'image/png')).toEqual({ ok: true, type: 'image/jpeg' });
    expect(sniff(Buffer.from('GIF89a\x01\x00'))).toEqual({ ok: true, type: 'image/gif' });
    expect(sniff(Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 '))).toEqual({ ok: true, type: 'image/webp' });
    expect(sniff(Buffer.from('%PDF-1.7\n%\xe2\xe3'))).toEqual({ ok: true, type: 'application/pdf' });
  });

  it('refuses programs and archives even when they claim to be images', () => {
    const exe = Buffer.alloc(512);
    exe.write('MZ');
    expect(sniff(exe, 'cat.png', 'image/png')).toEqual({
      ok: false,
      reason: expect.stringMatching(/^This file looks like a Windows program/),
    });
    expect(sniff([0x7f, 0x45, 0x4c, 0x46, 2, 1], 'cat.jpg', 'image/jpeg')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('a program'),
    });
    expect(sniff(Buffer.from('PK\x03\x04....'), 'doc.pdf')).toMatchObject({ ok: false, reason: expect.stringContaining('an archive') });
    expect(sniff([0xde, 0xad, 0xbe, 0xef, 0x00])).toMatchObject({ ok: false });
  });

  it('says HEIC is not supported yet, and other ISO media is not allowed', () => {
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic'), Buffer.alloc(8)]);
    expect(sniff(heic)).toEqual({ ok: false, reason: expect.stringContaining('HEIC') });
    const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypisom'), Buffer.alloc(8)]);
    expect(sniff(mp4)).toMatchObject({ ok: false, reason: expect.not.stringContaining('HEIC') });
  });

  it('takes UTF-8 text without NUL, telling markdown and CSV by the name (then the claim)', () => {
    expect(sniff(Buffer.from('# Notes\n'), 'notes.md')).toEqual({ ok: true, type: 'text/markdown' });
    expect(sniff(Buffer.from('a,b\n1,2\n'), 'table.CSV')).toEqual({ ok: true, type: 'text/csv' });
    expect(sniff(Buffer.from('a,b\n'), 'export', 'text/csv; charset=utf-8')).toEqual({ ok: true, type: 'text/csv' });
    expect(sniff(Buffer.from('plain ünïcode'), 'x', 'image/png')).toEqual({ ok: true, type: 'text/plain' });
    expect(sniff(Buffer.from('has a \u0000 NUL'))).toMatchObject({ ok: false });
    expect(sniff([0x61, 0xff, 0x62])).toMatchObject({ ok: false });
  });

  it('allows a character cut at the end of a partial read, not at the end of a whole file', () => {
    const cut = Buffer.from('é').subarray(0, 1);
    expect(looksLikeText(Buffer.concat([Buffer.from('abc'), cut]), false)).toBe(true);
    expect(looksLikeText(Buffer.concat([Buffer.from('abc'), cut]), true)).toBe(false);
  });

  it('says an empty file is empty', () => {
    expect(sniff([])).toEqual({ ok: false, reason: 'The file is empty.' });
  });

  it('checks text whole across chunk boundaries', () => {
    const euro = Buffer.from('€');
    const ok = new Utf8TextChecker();
    expect(ok.push(euro.subarray(0, 1))).toBe(true);
    expect(ok.push(euro.subarray(1))).toBe(true);
    expect(ok.end()).toBe(true);
    const unfinished = new Utf8TextChecker();
    expect(unfinished.push(euro.subarray(0, 2))).toBe(true);
    expect(unfinished.end()).toBe(false);
    const nul = new Utf8TextChecker();
    expect(nul.push(Buffer.from('abc'))).toBe(true);
    expect(nul.push(Buffer.from([0]))).toBe(false);
    expect(nul.end()).toBe(false);
  });

  it('serves raster images and plain text inline; PDFs, anything scriptable or unknown as an attachment', () => {
    expect(servingOf('image/png', 'a.png')).toEqual({ contentType: 'image/png', disposition: 'inline' });
    for (const type of ['image/jpeg', 'image/gif', 'image/webp'])
      expect(servingOf(type, 'a')).toEqual({ contentType: type, disposition: 'inline' });
    expect(servingOf('application/pdf', 'a.pdf')).toEqual({ contentType: 'application/pdf', disposition: 'attachment' });
    expect(servingOf('text/csv', 'a.csv')).toEqual({ contentType: 'text/csv; charset=utf-8', disposition: 'attachment' });
    expect(servingOf('text/plain', 'a.txt')).toEqual({ contentType: 'text/plain; charset=utf-8', disposition: 'inline' });
    expect(servingOf('text/plain', 'a.svg')).toEqual({ contentType: 'text/plain; charset=utf-8', disposition: 'attachment' });
    expect(servingOf('text/plain', 'page.HTML')).toMatchObject({ disposition: 'attachment' });
    expect(servingOf('text/markdown', 'a.md')).toEqual({ contentType: 'text/markdown; charset=utf-8', disposition: 'attachment' });
    expect(servingOf('image/svg+xml', 'a.svg')).toEqual({ contentType: 'application/octet-stream', disposition: 'attachment' });
    expect(servingOf('text/html', 'a.txt')).toEqual({ contentType: 'application/octet-stream', disposition: 'attachment' });
  });
});
