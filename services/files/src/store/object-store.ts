import type { Readable } from 'node:stream';

/** What the files logic needs from wherever the bytes live (a local folder or an S3 bucket). */
export interface ObjectStore {
  readonly kind: 'local' | 's3';
  /** Writes a whole object, atomically: readers see the old one or the new one, never a part. */
  put(key: string, body: Buffer | Readable, size: number, contentType: string): Promise<void>;
  /** The object's bytes as a stream; ObjectNotFoundError when there is none. */
  get(key: string): Promise<Readable>;
  exists(key: string): Promise<boolean>;
  /** Removes objects; missing ones are fine (deletion is idempotent). */
  delete(keys: readonly string[]): Promise<void>;
  /** Whether the store answers (readiness). */
  check(): Promise<void>;
}

export const OBJECT_STORE = Symbol('OBJECT_STORE');

export class ObjectNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`No object ${key}`);
    this.name = 'ObjectNotFoundError';
  }
}

/** Keys are ours, never a user's text: lower-case segments, no dot segments, no way out of the store. */
const KEY = /^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9._-]*)*$/;

export function assertSafeKey(key: string): string {
  if (key.length > 512 || !KEY.test(key) || key.split('/').some((segment) => segment === '.' || segment === '..')) {
    throw new Error(`Unsafe object key: ${JSON.stringify(key)}`);
  }
  return key;
}

/** Where things live in the store. Keys carry no user id, so a guest merge moves nothing. */
export const OBJECT_KEYS = {
  file: (id: string) => assertSafeKey(`objects/${id}`),
  preview: (id: string, resolution: number) => assertSafeKey(`derived/${id}/preview-${resolution}.webp`),
  text: (id: string) => assertSafeKey(`derived/${id}/text.txt`),
  uploadPart: (uploadId: string, seq: number) => assertSafeKey(`uploads/${uploadId}/${String(seq).padStart(7, '0')}`),
};

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}
