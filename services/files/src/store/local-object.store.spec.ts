import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { LocalObjectStore } from './local-object.store';
import { assertSafeKey, OBJECT_KEYS, ObjectNotFoundError, readAll } from './object-store';

describe('the local object store', () => {
  let root: string;
  let store: LocalObjectStore;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'objects-'));
    store = new LocalObjectStore(root);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('writes, reads, tells existence and deletes (twice is fine), leaving no empty folders', async () => {
    const key = OBJECT_KEYS.preview('6f1c2a4e-0b7d-4c1e-9a55-3d2f7e8b9c10', 256);
    await store.put(key, Buffer.from('webp'), 4, 'image/webp');
    expect(await store.exists(key)).toBe(true);
    expect((await readAll(await store.get(key))).toString()).toBe('webp');
    await store.delete([key]);
    await store.delete([key]);
    expect(await store.exists(key)).toBe(false);
    await expect(store.get(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
    expect(await readdir(join(root, 'derived'))).toEqual([]);
  });

  it('writes atomically: a failed stream leaves neither the object nor a temporary file', async () => {
    const failing = Readable.from(
      (async function* () {
        yield Buffer.from('half');
        throw new Error('client went away');
      })(),
    );
    await expect(store.put('objects/abc', failing, 8, 'text/plain')).rejects.toThrow('client went away');
    expect(await store.exists('objects/abc')).toBe(false);
    expect(await readdir(join(root, '.incoming'))).toEqual([]);
    await expect(store.put('objects/abc', Buffer.from('short'), 6, 'text/plain')).rejects.toThrow(/expected 6/);
    expect(await store.exists('objects/abc')).toBe(false);
  });

  it('replaces an object whole', async () => {
    await store.put('objects/abc', Buffer.from('one'), 3, 'text/plain');
    await store.put('objects/abc', Readable.from([Buffer.from('tw'), Buffer.from('o!')]), 4, 'text/plain');
    expect(await readFile(join(root, 'objects', 'abc'), 'utf8')).toBe('two!');
  });

  it.each(['../etc/passwd', 'objects/../../x', '/abs', 'objects//x', 'Objects/X', 'objects/.hidden', 'a\u0000b', 'objects/x/'])(
    'refuses the key %j',
    async (key) => {
      expect(() => assertSafeKey(key)).toThrow(/Unsafe object key/);
      await expect(store.put(key, Buffer.from('x'), 1, 'text/plain')).rejects.toThrow(/Unsafe object key/);
    },
  );
});
