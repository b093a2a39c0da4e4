import type { Caller } from '@app/contracts';
import { FILE_TRANSFER, type FileChunk } from '@app/contracts/files';
import { RpcCallError, type AppLogger, type RpcClient } from '@app/platform';
import { randomUUID } from 'node:crypto';
import { lastValueFrom, toArray } from 'rxjs';
import type { FilesConfig } from '../config';
import { MemoryFiles, MemoryObjects } from '../testing/files.fakes';
import type { UploadsService } from '../uploads/uploads.service';
import type { DerivedContentService } from './derived-content.service';
import { FILE_NOT_FOUND, FilesService, LINK_EXPIRED, nowSeconds } from './files.service';
import type { FileSource } from './user-file.columns';

const OWNER = randomUUID();
const STRANGER = randomUUID();
const callerOf = (userId: string | null): Caller => ({ user_id: userId, is_anon: false, session_id: null, request_id: 'r' });
const config = { FILES_SIGNED_URL_TTL_SECONDS: 600 } as FilesConfig;

/** The link's query, as the gateway hands it to `read`. */
function linkOf(url: string): { expires: number; signature: string } {
  const query = new URL(url, 'http://x').searchParams;
  return { expires: Number(query.get('expires')), signature: query.get('signature') ?? '' };
}

describe('FilesService', () => {
  let store: MemoryFiles;
  let objects: MemoryObjects;
  let preview: jest.Mock;
  let sharedAccess: jest.Mock;
  let dropPartsOf: jest.Mock;
  let files: FilesService;

  beforeEach(() => {
    store = new MemoryFiles();
    objects = new MemoryObjects();
    preview = jest.fn(async () => 'data:image/webp;base64,AAAA');
    sharedAccess = jest.fn();
    dropPartsOf = jest.fn(async () => undefined);
    files = new FilesService(
      store,
      objects,
      config,
      { preview } as unknown as DerivedContentService,
      { dropPartsOf } as unknown as UploadsService,
      { call: sharedAccess } as unknown as RpcClient,
      { log: jest.fn(), warn: jest.fn() } as unknown as AppLogger,
    );
  });

  async function stored(
    bytes = Buffer.from('hello world'),
    mimeType = 'text/plain',
    { userId = OWNER, source = 'upload' }: { userId?: string; source?: FileSource } = {},
  ) {
    const id = randomUUID();
    const storageKey = `objects/${id}`;
    await objects.put(storageKey, bytes, bytes.length);
    return store.insertFile({
      id,
      userId,
      filename: 'notes.txt',
      source,
      mimeType,
      size: bytes.length,
      sha256: 'x',
      storageKey,
    });
  }

  const read = (caller: Caller, input: { object_store_object_id: string; expires?: number; signature?: string }) =>
    lastValueFrom(files.read(caller, input).pipe(toArray()));

  it('describes a file to its owner, and to anyone else (or for an id that is not one) answers not found', async () => {
    const file = await stored();
    expect(await files.describe(callerOf(OWNER), file.id)).toMatchObject({
      object_store_object_id: file.id,
      filename: 'notes.txt',
      size: 11,
    });
    await expect(files.describe(callerOf(STRANGER), file.id)).rejects.toMatchObject({ status: 404, message: FILE_NOT_FOUND });
    await expect(files.describe(callerOf(OWNER), 'not-a-uuid')).rejects.toMatchObject({ status: 404 });
  });

  it("streams the owner's file as a head then chunks of at most the transfer size, in order", async () => {
    const bytes = Buffer.alloc(FILE_TRANSFER.chunkBytes * 2 + 10, 7);
    const file = await stored(bytes, 'application/octet-stream');
    const frames: FileChunk[] = await read(callerOf(OWNER), { object_store_object_id: file.id });

    expect(frames[0]).toMatchObject({ kind: 'head', size: bytes.length, filename: 'notes.txt' });
    const data = frames.slice(1).map((f) => Buffer.from((f as { data: string }).data, 'base64'));
    expect(data.map((d) => d.length)).toEqual([FILE_TRANSFER.chunkBytes, FILE_TRANSFER.chunkBytes, 10]);
    expect(Buffer.concat(data).equals(bytes)).toBe(true);
  });

  it('lets a stranger read through a genuine, current link only: expired is 403, forged or for another file is 404', async () => {
    const file = await stored();
    const other = await stored();
    const { presigned_url } = await files.presign(callerOf(OWNER), { object_store_object_id: file.id, preview_resolution: 256 });
    const link = linkOf(presigned_url);

    const frames = await read(callerOf(null), { object_store_object_id: file.id, ...link });
    expect(frames[0]).toMatchObject({ kind: 'head' });

    await expect(read(callerOf(STRANGER), { object_store_object_id: other.id, ...link })).rejects.toMatchObject({ status: 404 });
    await expect(read(callerOf(STRANGER), { object_store_object_id: file.id, ...link, signature: 'A'.repeat(43) })).rejects.toMatchObject({
      status: 404,
    });
    await expect(read(callerOf(STRANGER), { object_store_object_id: randomUUID(), ...link })).rejects.toMatchObject({ status: 404 });
    await expect(read(callerOf(STRANGER), { object_store_object_id: file.id, expires: link.expires })).rejects.toMatchObject({
      status: 404,
    });

    jest.spyOn(Date, 'now').mockReturnValue((link.expires + 1) * 1000);
    try {
      await expect(read(callerOf(STRANGER), { object_store_object_id: file.id, ...link })).rejects.toMatchObject({
        status: 403,
        message: LINK_EXPIRED,
      });
    } finally {
      jest.restoreAllMocks();
    }
  });

  it('asks a signed-out caller without a link to sign in, and tells a signed-in stranger nothing', async () => {
    const file = await stored();
    await expect(read(callerOf(null), { object_store_object_id: file.id })).rejects.toMatchObject({ status: 401 });
    await expect(read(callerOf(STRANGER), { object_store_object_id: file.id })).rejects.toMatchObject({ status: 404 });
  });

  it('gives the link even when the preview fails, and links expire after the configured time', async () => {
    const file = await stored(Buffer.from('png'), 'image/png');
    preview.mockRejectedValueOnce(new Error('store hiccup'));
    const before = nowSeconds();
    const presigned = await files.presign(callerOf(OWNER), { object_store_object_id: file.id, preview_resolution: 256 });
    expect(presigned.preview_data_url).toBeNull();
    expect(linkOf(presigned.presigned_url).expires).toBeGreaterThanOrEqual(before + 600);
    expect(linkOf(presigned.presigned_url).expires).toBeLessThanOrEqual(nowSeconds() + 600);
  });

  it("shows a file through a share only when the chat service says the share shows the file's owner's file", async () => {
    const file = await stored();
    const shareId = randomUUID();
    sharedAccess.mockResolvedValueOnce({ owner_user_id: OWNER });
    expect(
      (await files.presign(callerOf(STRANGER), { object_store_object_id: file.id, preview_resolution: 256, share_id: shareId })).filename,
    ).toBe('notes.txt');

    sharedAccess.mockResolvedValueOnce({ owner_user_id: STRANGER });
    await expect(
      files.presign(callerOf(STRANGER), { object_store_object_id: file.id, preview_resolution: 256, share_id: shareId }),
    ).rejects.toMatchObject({
      status: 404,
    });
    sharedAccess.mockRejectedValueOnce(new RpcCallError({ status: 404, detail: 'Share not found' }, 'chat.share.file'));
    await expect(
      files.presign(callerOf(STRANGER), { object_store_object_id: file.id, preview_resolution: 256, share_id: shareId }),
    ).rejects.toMatchObject({
      status: 404,
    });
  });

  it("discards the caller's own uploads with what was made from them, and leaves anything else alone", async () => {
    const [first, second] = [await stored(), await stored()];
    await objects.put(`derived/${first.id}/text.txt`, Buffer.from('t'), 1);
    await store.addDerivedKey(first.id, `derived/${first.id}/text.txt`);
    const kept = [
      await stored(undefined, undefined, { userId: STRANGER }),
      await stored(undefined, undefined, { source: 'generated' }),
      await stored(undefined, undefined, { source: 'import' }),
    ];
    const ids = [first.id, first.id, second.id, ...kept.map((file) => file.id), randomUUID(), 'not-a-uuid'];

    expect(await files.discardAttachments(callerOf(OWNER), ids)).toEqual({ discarded: 2 });
    expect([await store.findFile(first.id), await store.findFile(second.id)]).toEqual([null, null]);
    expect([...objects.objects.keys()].sort()).toEqual(kept.map((file) => file.storageKey).sort());
    for (const file of kept) expect(await store.findFile(file.id)).not.toBeNull();
    // Again (a retry): nothing more to do.
    expect(await files.discardAttachments(callerOf(OWNER), ids)).toEqual({ discarded: 0 });
  });

  it("purges a user's objects with what was made from them, and their unfinished uploads", async () => {
    const file = await stored();
    await objects.put(`derived/${file.id}/text.txt`, Buffer.from('t'), 1);
    await store.addDerivedKey(file.id, `derived/${file.id}/text.txt`);

    await files.purgeUserData(OWNER);
    expect(objects.objects.size).toBe(0);
    expect(dropPartsOf).toHaveBeenCalledWith(OWNER);
    // Twice is harmless (the purge is redelivered).
    await files.purgeUserData(OWNER);
  });
});
