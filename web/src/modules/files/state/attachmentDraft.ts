import type { FileReference } from '@app/contracts/chat';
import type { FileUploadResult } from '@app/contracts/files';
import { createStore, type Store } from '../../common/state/createStore';
import { isImage, MAX_ATTACHMENTS, uploadFile } from '../api/filesApi';

/** A file attached to the message being written: uploading at once, removable until sent. */
export type DraftAttachment = {
  key: string;
  name: string;
  mimeType: string;
  size: number;
  /** A local preview (object URL) for images, until the message is sent. */
  previewUrl: string | null;
  status: 'uploading' | 'ready' | 'failed';
  error: string | null;
  result: FileUploadResult | null;
};

export type AttachmentDraftState = { items: DraftAttachment[]; notice: string | null };

export type AttachmentDraft = Store<AttachmentDraftState> & {
  add: (files: Iterable<File>) => void;
  remove: (key: string) => void;
  /** What to send: `{object_store_object_id, mime_type}` of each uploaded file. */
  references: () => FileReference[];
  uploading: () => boolean;
  /** After sending: the list empties (local previews released). */
  clear: () => void;
  /** Unmounted: uploads stopped, previews released. */
  dispose: () => void;
};

type Deps = {
  upload?: (file: File, signal: AbortSignal) => Promise<FileUploadResult>;
  previewOf?: (file: File) => string | null;
  release?: (url: string) => void;
};

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
let seq = 0;

const defaultPreview = (file: File) => (isImage(file.type) && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null);
const defaultRelease = (url: string) => {
  if (typeof URL.revokeObjectURL === 'function') URL.revokeObjectURL(url);
};

/** The attachments of one composer: each file uploads as soon as it is added. */
export function createAttachmentDraft({
  upload = uploadFile,
  previewOf = defaultPreview,
  release = defaultRelease,
}: Deps = {}): AttachmentDraft {
  const store = createStore<AttachmentDraftState>(() => ({ items: [], notice: null }));
  const controllers = new Map<string, AbortController>();
  const patch = (key: string, change: Partial<DraftAttachment>) =>
    store.set((s) => ({ items: s.items.map((item) => (item.key === key ? { ...item, ...change } : item)) }));
  const drop = (item: DraftAttachment) => {
    controllers.get(item.key)?.abort();
    controllers.delete(item.key);
    if (item.previewUrl) release(item.previewUrl);
  };

  const start = (key: string, file: File) => {
    const controller = new AbortController();
    controllers.set(key, controller);
    upload(file, controller.signal).then(
      (result) => {
        if (controller.signal.aborted) return;
        controllers.delete(key);
        patch(key, { status: 'ready', result, mimeType: result.mime_type || file.type });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        controllers.delete(key);
        console.error(error);
        patch(key, { status: 'failed', error: messageOf(error) });
      },
    );
  };

  return {
    ...store,
    add(files) {
      const list = [...files];
      if (list.length === 0) return;
      const room = MAX_ATTACHMENTS - store.get().items.length;
      const taken = list.slice(0, Math.max(room, 0));
      const added = taken.map<DraftAttachment>((file) => ({
        key: `a${++seq}`,
        name: file.name || 'pasted file',
        mimeType: file.type || 'application/octet-stream',
        size: file.size,
        previewUrl: previewOf(file),
        status: 'uploading',
        error: null,
        result: null,
      }));
      store.set((s) => ({
        items: [...s.items, ...added],
        notice: taken.length < list.length ? `You can attach up to ${MAX_ATTACHMENTS} files to a message.` : null,
      }));
      added.forEach((item, index) => start(item.key, taken[index]));
    },
    remove(key) {
      const item = store.get().items.find((i) => i.key === key);
      if (!item) return;
      drop(item);
      store.set((s) => ({ items: s.items.filter((i) => i.key !== key), notice: null }));
    },
    references: () =>
      store
        .get()
        .items.filter((item) => item.status === 'ready' && item.result)
        .map((item) => ({ object_store_object_id: item.result!.object_store_object_id, mime_type: item.result!.mime_type })),
    uploading: () => store.get().items.some((item) => item.status === 'uploading'),
    clear() {
      store.get().items.forEach(drop);
      store.set({ items: [], notice: null });
    },
    dispose() {
      store.get().items.forEach(drop);
    },
  };
}
