import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertSafeKey, ObjectNotFoundError, type ObjectStore } from './object-store';

/**
 * Objects as files under one folder (DATA_DIR/objects in the embedded mode). Each write goes to a
 * temporary file first and is renamed into place, so a crash never leaves half an object.
 */
export class LocalObjectStore implements ObjectStore {
  readonly kind = 'local' as const;
  private readonly root: string;
  private readonly scratch: string;

  constructor(root: string) {
    this.root = resolve(root);
    this.scratch = join(this.root, '.incoming');
  }

  async put(key: string, body: Buffer | Readable, size: number, _contentType?: string): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(this.scratch, { recursive: true });
    await mkdir(dirname(target), { recursive: true });
    const temporary = join(this.scratch, randomUUID());
    try {
      if (Buffer.isBuffer(body)) await writeFile(temporary, body, { flag: 'wx' });
      else await pipeline(body, createWriteStream(temporary, { flags: 'wx' }));
      const written = (await stat(temporary)).size;
      if (written !== size) throw new Error(`Object ${key}: wrote ${written} bytes, expected ${size}`);
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<Readable> {
    const path = this.pathOf(key);
    const stream = createReadStream(path);
    await new Promise<void>((ok, fail) => {
      stream.once('open', () => ok());
      stream.once('error', (error: NodeJS.ErrnoException) => fail(error.code === 'ENOENT' ? new ObjectNotFoundError(key) : error));
    });
    return stream;
  }

  async exists(key: string): Promise<boolean> {
    return access(this.pathOf(key)).then(
      () => true,
      () => false,
    );
  }

  async delete(keys: readonly string[]): Promise<void> {
    for (const key of keys) {
      const path = this.pathOf(key);
      await rm(path, { force: true });
      // Leave no empty folders behind (derived/<id>/, uploads/<id>/); a folder still in use stays.
      await rmdir(dirname(path)).catch(() => undefined);
    }
  }

  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true });
  }

  private pathOf(key: string): string {
    const path = join(this.root, ...assertSafeKey(key).split('/'));
    if (!path.startsWith(this.root + sep)) throw new Error(`Unsafe object key: ${key}`);
    return path;
  }
}
