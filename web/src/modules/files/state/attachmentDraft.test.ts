import type { FileUploadResult } from '@app/contracts/files';
import { describe, expect, it, vi } from 'vitest';
import { createAttachmentDraft } from './attachmentDraft';

function harness() {
  const uploads: { file: File; signal: AbortSignal; resolve: (r: FileUploadResult) => void; reject: (e: Error) => void }[] = [];
  const released: string[] = [];
  const draft = createAttachmentDraft({
    upload: (file, signal) => new Promise<FileUploadResult>((resolve, reject) => uploads.push({ file, signal, resolve, reject })),
    previewOf: (file) => (file.type.startsWith('image/') ? `blob:${file.name}` : null),
    release: (url) => released.push(url),
  });
  return { draft, uploads, released };
}
const file = (name: string, type: string) => new File(['x'], name, { type });
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the attachments of the message being written', () => {
  it('uploads each file at once, with a local preview for images, and sends the references of those uploaded', async () => {
    const { draft, uploads } = harness();
    draft.add([file('cat.png', 'image/png'), file('doc.pdf', 'application/pdf')]);
    expect(draft.get().items.map((i) => [i.name, i.status, i.previewUrl])).toEqual([
      ['cat.png', 'uploading', 'blob:cat.png'],
      ['doc.pdf', 'uploading', null],
    ]);
    expect(draft.uploading()).toBe(true);
    uploads[0].resolve({ object_store_object_id: 'f1', mime_type: 'image/png', filename: 'cat.png', size: 1 });
    await flush();
    expect(draft.references()).toEqual([{ object_store_object_id: 'f1', mime_type: 'image/png' }]);
    uploads[1].resolve({ object_store_object_id: 'f2', mime_type: 'application/pdf', filename: 'doc.pdf', size: 1 });
    await flush();
    expect(draft.uploading()).toBe(false);
    expect(draft.references()).toEqual([
      { object_store_object_id: 'f1', mime_type: 'image/png' },
      { object_store_object_id: 'f2', mime_type: 'application/pdf' },
    ]);
  });

  it('keeps a failed upload with its reason and leaves it out of what is sent', async () => {
    const { draft, uploads } = harness();
    draft.add([file('evil.png', 'image/png')]);
    uploads[0].reject(new Error('This type of file is not accepted.'));
    await flush();
    expect(draft.get().items[0]).toMatchObject({ status: 'failed', error: 'This type of file is not accepted.' });
    expect(draft.references()).toEqual([]);
    expect(draft.uploading()).toBe(false);
  });

  it('removes a file before sending: its upload stops and its preview is released', async () => {
    const { draft, uploads, released } = harness();
    draft.add([file('cat.png', 'image/png')]);
    draft.remove(draft.get().items[0].key);
    expect(uploads[0].signal.aborted).toBe(true);
    expect(released).toEqual(['blob:cat.png']);
    uploads[0].resolve({ object_store_object_id: 'f1', mime_type: 'image/png', filename: 'cat.png', size: 1 });
    await flush();
    expect(draft.get().items).toEqual([]);
  });

  it('takes at most 10 files and says so', () => {
    const { draft } = harness();
    draft.add(Array.from({ length: 12 }, (_, i) => file(`f${i}.txt`, 'text/plain')));
    expect(draft.get().items).toHaveLength(10);
    expect(draft.get().notice).toBe('You can attach up to 10 files to a message.');
  });

  it('empties after sending and stops everything when the page goes', () => {
    const { draft, uploads, released } = harness();
    const listener = vi.fn();
    draft.subscribe(listener);
    draft.add([file('a.png', 'image/png')]);
    draft.clear();
    expect(draft.get().items).toEqual([]);
    expect(released).toEqual(['blob:a.png']);
    draft.add([file('b.png', 'image/png')]);
    draft.dispose();
    expect(uploads.map((u) => u.signal.aborted)).toEqual([true, true]);
    expect(listener).toHaveBeenCalled();
  });
});
