import type { Caller } from '@app/contracts';
import { FILE_TRANSFER } from '@app/contracts/files';
import type { AppLogger } from '@app/platform';
import { DomainError } from '@app/platform';
import type { FilesConfig } from '../config';
import { MemoryFiles, MemoryObjects } from '../testing/files.fakes';
import { UploadsService } from './uploads.service';

const caller: Caller = { user_id: '0e5b8d3a-7c4f-4a2b-8d6e-1f9a0b2c3d4e', is_anon: true, session_id: null, request_id: 'r' };
const config = { FILES_MAX_BYTES: 500_000, IMPORT_MAX_BYTES: 1_000_000, FILES_UPLOAD_IDLE_SECONDS: 900 } as FilesConfig;
const b64 = (bytes: Buffer) => bytes.toString('base64');

describe('UploadsService', () => {
  let objects: MemoryObjects;
  let store: MemoryFiles;
  let uploads: UploadsService;

  beforeEach(() => {
    objects = new MemoryObjects();
    store = new MemoryFiles();
    uploads = new UploadsService(store, objects, config, { log() {}, error() {} } as unknown as AppLogger);
  });

  const send = async (content: Buffer, filename: string) => {
    const { upload_id } = await uploads.begin(caller, { filename });
    for (let seq = 0, at = 0; at < content.length; seq++, at += FILE_TRANSFER.chunkBytes) {
      await uploads.chunk(caller, { upload_id, seq, data: b64(content.subarray(at, at + FILE_TRANSFER.chunkBytes)) });
    }
    return { upload_id, result: await uploads.commit(caller, upload_id) };
  };

  it('joins the chunks into one object, records it, and drops the parts and the session', async () => {
    const content = Buffer.alloc(450_000, 'x');
    const { result } = await send(content, '../notes.txt');
    expect(result).toMatchObject({ mime_type: 'text/plain', filename: 'notes.txt', size: 450_000 });
    expect([...objects.objects.keys()]).toEqual([`objects/${result.object_store_object_id}`]);
    expect(objects.objects.get(`objects/${result.object_store_object_id}`)!.equals(content)).toBe(true);
    expect(store.sessions.size).toBe(0);
    expect(store.files.get(result.object_store_object_id)).toMatchObject({
      userId: caller.user_id,
      source: 'upload',
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it('refuses a program on its first chunk and keeps nothing', async () => {
    const { upload_id } = await uploads.begin(caller, { filename: 'cat.png', declared_type: 'image/png' });
    await expect(uploads.chunk(caller, { upload_id, seq: 0, data: b64(Buffer.from('MZ\u0090\u0000\u0003')) })).rejects.toMatchObject({
      code: 'unsupported_media_type',
    });
    expect(store.sessions.size).toBe(0);
    expect(objects.objects.size).toBe(0);
  });

  it('refuses the chunk that goes over the limit (413) and drops what came', async () => {
    const { upload_id } = await uploads.begin(caller, { filename: 'a.txt' });
    const chunk = b64(Buffer.alloc(FILE_TRANSFER.chunkBytes, 'a'));
    await uploads.chunk(caller, { upload_id, seq: 0, data: chunk });
    await uploads.chunk(caller, { upload_id, seq: 1, data: chunk });
    await expect(uploads.chunk(caller, { upload_id, seq: 2, data: chunk })).rejects.toMatchObject({
      code: 'payload_too_large',
      status: 413,
    });
    expect(store.sessions.size).toBe(0);
    expect(objects.objects.size).toBe(0);
  });

  it('takes chunks in order only, and only from the session owner', async () => {
    const { upload_id } = await uploads.begin(caller, { filename: 'a.txt' });
    await expect(uploads.chunk(caller, { upload_id, seq: 1, data: b64(Buffer.from('late')) })).rejects.toMatchObject({ status: 409 });
    const other = { ...caller, user_id: '00000000-0000-4000-8000-000000000000' };
    await expect(uploads.chunk(other, { upload_id, seq: 0, data: b64(Buffer.from('hi')) })).rejects.toMatchObject({ status: 404 });
    await expect(uploads.commit(other, upload_id)).rejects.toBeInstanceOf(DomainError);
  });

  it('refuses text that breaks UTF-8 after the first chunk, at the commit, removing the object', async () => {
    const content = Buffer.concat([Buffer.alloc(FILE_TRANSFER.chunkBytes + 10, 'a'), Buffer.from([0xc3])]);
    await expect(send(content, 'a.txt')).rejects.toMatchObject({ code: 'unsupported_media_type' });
    expect(objects.objects.size).toBe(0);
    expect(store.files.size).toBe(0);
    expect(store.sessions.size).toBe(0);
  });

  it('commits once: a second commit finds the session gone', async () => {
    const { upload_id } = await uploads.begin(caller, { filename: 'a.txt' });
    await uploads.chunk(caller, { upload_id, seq: 0, data: b64(Buffer.from('hello')) });
    await uploads.commit(caller, upload_id);
    await expect(uploads.commit(caller, upload_id)).rejects.toMatchObject({ status: 404 });
  });

  it('takes an export to import as a zip only, up to its own limit, stored as an import', async () => {
    const zip = Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(700_000, 1)]);
    const { upload_id, max_bytes } = await uploads.begin(caller, { filename: 'export.zip', purpose: 'import' });
    expect(max_bytes).toBe(1_000_000);
    for (let seq = 0, at = 0; at < zip.length; seq++, at += FILE_TRANSFER.chunkBytes)
      await uploads.chunk(caller, { upload_id, seq, data: b64(zip.subarray(at, at + FILE_TRANSFER.chunkBytes)) });
    expect(await uploads.commit(caller, upload_id)).toMatchObject({ mime_type: 'application/zip', size: 700_004 });
    expect([...store.files.values()].map((f) => f.source)).toEqual(['import']);
    // Anything else is refused on its first chunk, even text that an attachment could be.
    const text = await uploads.begin(caller, { filename: 'export.zip', purpose: 'import' });
    await expect(uploads.chunk(caller, { upload_id: text.upload_id, seq: 0, data: b64(Buffer.from('hello')) })).rejects.toMatchObject({
      code: 'unsupported_media_type',
    });
    // An attachment keeps its own limit.
    await expect(send(Buffer.alloc(600_000, 'x'), 'big.txt')).rejects.toMatchObject({ code: 'payload_too_large' });
  });

  it('stores a small object in one call, checked like an upload', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    await expect(uploads.put(caller, { data: b64(png), filename: 'gen.png', source: 'generated' })).resolves.toMatchObject({
      mime_type: 'image/png',
      size: 11,
    });
    await expect(uploads.put(caller, { data: b64(Buffer.alloc(0)), filename: 'x', source: 'generated' })).rejects.toMatchObject({
      status: 400,
    });
  });
});
