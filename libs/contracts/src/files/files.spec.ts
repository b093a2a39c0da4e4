import { randomBytes } from 'node:crypto';
import { FILES_RPC, isBase64 } from './index';

describe('files contracts', () => {
  it('take base64 chunks and refuse anything else', () => {
    for (const n of [0, 1, 2, 3, 300]) expect(isBase64(randomBytes(n).toString('base64'))).toBe(true);
    expect(isBase64('abc')).toBe(false);
    expect(isBase64('ab!=')).toBe(false);
    expect(isBase64('a=bc')).toBe(false);
    expect(isBase64('YWJj\nZGVm')).toBe(false);
    expect(isBase64('é€€€')).toBe(false);
  });

  it('keep a chunk well under the 1 MB a NATS message carries', () => {
    const data = randomBytes(192 * 1024).toString('base64');
    const request = FILES_RPC.uploadChunk.request.parse({ upload_id: '6f1c2a4e-0b7d-4c1e-9a55-3d2f7e8b9c10', seq: 0, data });
    expect(Buffer.byteLength(JSON.stringify({ caller: {}, data: request }))).toBeLessThan(300 * 1024);
    expect(() =>
      FILES_RPC.uploadChunk.request.parse({ upload_id: '6f1c2a4e-0b7d-4c1e-9a55-3d2f7e8b9c10', seq: 0, data: `${data}AAAAAAAA` }),
    ).toThrow();
  });
});
