import { FILE_TRANSFER, FILES_RPC } from '@app/contracts/files';
import { RpcCallError } from '@app/platform';
import { aCaller } from '../testing/builders';
import { FakeLogger } from '../testing/logger.fake';
import { FakeRpc } from '../testing/bus.fakes';
import { AttachmentsService } from './attachments.service';

const OWNER = aCaller('owner');
const described = (id: string, mime: string) => ({
  object_store_object_id: id,
  mime_type: mime,
  filename: `${id}.bin`,
  size: 3,
  source: 'upload' as const,
  created_at: '2026-01-01T00:00:00Z',
});
const stored = (id: string) => ({ object_store_object_id: id, mime_type: 'image/png', filename: 'generated.png', size: 4 });
const notFound = (subject: string) => new RpcCallError({ status: 404, detail: 'File not found', code: 'not_found' }, subject);

describe('AttachmentsService', () => {
  let rpc: FakeRpc;
  let logger: FakeLogger;
  let attachments: AttachmentsService;

  beforeEach(() => {
    rpc = new FakeRpc();
    logger = new FakeLogger();
    attachments = new AttachmentsService(rpc, logger);
  });

  describe('verify', () => {
    it("keeps the sender's files with the type the files service found in their bytes, not the one claimed", async () => {
      rpc.answer(FILES_RPC.describe, ({ object_store_object_id }) => described(object_store_object_id, 'image/png'));
      expect(await attachments.verify(OWNER, [{ object_store_object_id: 'a', mime_type: 'text/html' }])).toEqual([
        { object_store_object_id: 'a', mime_type: 'image/png' },
      ]);
      expect(rpc.calls[0]).toMatchObject({ subject: FILES_RPC.describe.subject, caller: OWNER });
    });

    it("says which file is not the sender's (404), and lets other failures through", async () => {
      rpc.answer(FILES_RPC.describe, ({ object_store_object_id }) => {
        if (object_store_object_id === 'theirs') throw notFound(FILES_RPC.describe.subject);
        return described(object_store_object_id, 'image/png');
      });
      await expect(
        attachments.verify(OWNER, [
          { object_store_object_id: 'mine', mime_type: 'image/png' },
          { object_store_object_id: 'theirs', mime_type: 'image/png' },
        ]),
      ).rejects.toMatchObject({
        status: 404,
        detail: 'File not found: theirs',
      });
      const away = new AttachmentsService(new FakeRpc(), logger);
      await expect(away.verify(OWNER, [{ object_store_object_id: 'x', mime_type: 'image/png' }])).rejects.toBeInstanceOf(RpcCallError);
    });
  });

  describe('forModel', () => {
    it('shows the files of the last four messages that have some (images as images, documents as text)', async () => {
      rpc.answer(FILES_RPC.readForModel, ({ object_store_object_id }) =>
        object_store_object_id.startsWith('img')
          ? {
              kind: 'image' as const,
              mime_type: 'image/png',
              data_url: 'data:image/png;base64,AA',
              width: 1,
              height: 1,
              filename: `${object_store_object_id}.png`,
            }
          : {
              kind: 'text' as const,
              mime_type: 'text/plain',
              text: 'notes',
              truncated: true,
              pages: null,
              filename: `${object_store_object_id}.txt`,
            },
      );
      const file = (id: string) => ({ object_store_object_id: id, mime_type: 'x' });
      const shown = await attachments.forModel(OWNER, [
        { id: 'm1', files: [file('img-old')] },
        { id: 'm2', files: [file('img-2')] },
        { id: 'm3', files: [] },
        { id: 'm4', files: [file('doc-4')] },
        { id: 'm5', files: [file('img-5')] },
        { id: 'm6', files: [file('img-6a'), file('doc-6b')] },
      ]);
      expect([...shown.keys()].sort()).toEqual(['m2', 'm4', 'm5', 'm6']);
      expect(shown.get('m6')).toEqual([
        { kind: 'image', filename: 'img-6a.png', dataUrl: 'data:image/png;base64,AA' },
        { kind: 'text', filename: 'doc-6b.txt', text: 'notes', truncated: true },
      ]);
      expect(rpc.calls.map((c) => (c.data as { object_store_object_id: string }).object_store_object_id)).not.toContain('img-old');
      expect(rpc.calls.every((c) => c.timeoutMs === 30_000)).toBe(true);
    });

    it('leaves out a file it cannot read, and says so in the log', async () => {
      rpc.answer(FILES_RPC.readForModel, () => {
        throw notFound(FILES_RPC.readForModel.subject);
      });
      const shown = await attachments.forModel(OWNER, [{ id: 'm1', files: [{ object_store_object_id: 'gone', mime_type: 'image/png' }] }]);
      expect(shown.get('m1')).toEqual([]);
      expect(logger.said('warn')).toEqual(['An attachment could not be read for the model']);
    });
  });

  describe('storeGenerated', () => {
    it('stores a small image in one message, as generated', async () => {
      rpc.answer(FILES_RPC.put, () => stored('img-1'));
      expect(await attachments.storeGenerated(OWNER, 'AAAA', 'image/png')).toEqual({
        object_store_object_id: 'img-1',
        mime_type: 'image/png',
      });
      expect(rpc.calls[0].data).toMatchObject({
        data: 'AAAA',
        declared_type: 'image/png',
        source: 'generated',
        filename: expect.stringMatching(/^generated-.*\.png$/),
      });
    });

    it('uploads a large one in chunks, in order, and names a JPEG .jpg', async () => {
      const chunks: { seq: number; bytes: number }[] = [];
      rpc
        .answer(FILES_RPC.uploadBegin, () => ({ upload_id: 'up-1', chunk_bytes: 300_000, max_bytes: 20_000_000 }))
        .answer(FILES_RPC.uploadChunk, ({ seq, data }) => {
          chunks.push({ seq, bytes: Buffer.from(data, 'base64').length });
          return { received_bytes: 0 };
        })
        .answer(FILES_RPC.uploadCommit, () => ({ ...stored('img-big'), mime_type: 'image/jpeg' }));
      const bytes = Buffer.alloc(FILE_TRANSFER.putBase64MaxChars, 7);
      expect(await attachments.storeGenerated(OWNER, bytes.toString('base64'), 'image/jpeg')).toEqual({
        object_store_object_id: 'img-big',
        mime_type: 'image/jpeg',
      });
      expect(chunks.map((c) => c.seq)).toEqual([0, 1, 2]);
      expect(chunks.reduce((sum, c) => sum + c.bytes, 0)).toBe(bytes.length);
      expect((rpc.calls[0].data as { filename: string }).filename).toMatch(/\.jpg$/);
    });

    it('aborts the upload when a chunk fails, and fails', async () => {
      rpc
        .answer(FILES_RPC.uploadBegin, () => ({ upload_id: 'up-2', chunk_bytes: 300_000, max_bytes: 20_000_000 }))
        .answer(FILES_RPC.uploadChunk, () => {
          throw new Error('disk full');
        })
        .answer(FILES_RPC.uploadAbort, () => ({ aborted: true }));
      await expect(
        attachments.storeGenerated(OWNER, Buffer.alloc(FILE_TRANSFER.putBase64MaxChars, 1).toString('base64'), 'image/png'),
      ).rejects.toThrow('disk full');
      expect(rpc.subjects().at(-1)).toBe(FILES_RPC.uploadAbort.subject);
      expect(rpc.calls.at(-1)!.data).toEqual({ upload_id: 'up-2' });
    });
  });
});
