import { JSONParser } from '@streamparser/json';
import type { Readable } from 'node:stream';
import * as yauzl from 'yauzl';

/** A zip refused as a whole, with the message the user sees. Nothing of it was written. */
export class ImportRefused extends Error {}

export interface ZipLimits {
  maxEntries: number;
  maxUncompressedBytes: number;
  maxEntryBytes: number;
  /** Uncompressed over compressed size above which a big entry is taken for a zip bomb. */
  maxRatio: number;
}

/** Entries small enough to be any ratio (a tiny file of zeros compresses a lot, harmlessly). */
const RATIO_FREE_BYTES = 1024 * 1024;

const mib = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/**
 * An export zip on disk, read with yauzl (random access: the central directory first, each entry
 * read on demand), checked whole before anything is read from it: entry count, names (no absolute
 * path, no `..`, no drive letter: and no entry is ever written to disk under its name anyway),
 * encryption, declared sizes (each and in all) and the compression ratio of big entries. yauzl
 * checks while reading that an entry yields exactly its declared size, so a lying header stops at
 * its bound too.
 */
export class ExportZip {
  private constructor(
    private readonly zip: yauzl.ZipFile,
    private readonly entries: Map<string, yauzl.Entry>,
    /** The zip's files by their ChatGPT file id (`file-AbC...`/`file_00...` at the start of the name). */
    private readonly byFileId: Map<string, yauzl.Entry>,
  ) {}

  static async open(path: string, limits: ZipLimits): Promise<ExportZip> {
    let zip: yauzl.ZipFile;
    try {
      zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: true });
    } catch (error) {
      throw new ImportRefused(`This is not a readable zip file (${messageOf(error)}).`);
    }
    const entries = new Map<string, yauzl.Entry>();
    const byFileId = new Map<string, yauzl.Entry>();
    let total = 0;
    try {
      for await (const entry of zip.eachEntry()) {
        if (entries.size >= limits.maxEntries) throw new ImportRefused(`The zip holds more than ${limits.maxEntries} files.`);
        const name = entry.fileName;
        if (!safeName(name)) throw new ImportRefused(`The zip holds an unsafe file name (${name.slice(0, 80)}).`);
        if (name.endsWith('/')) continue;
        if (entry.isEncrypted()) throw new ImportRefused('The zip is encrypted.');
        if (entry.uncompressedSize > limits.maxEntryBytes)
          throw new ImportRefused(
            `A file in the zip is too large (${mib(entry.uncompressedSize)}; the limit is ${mib(limits.maxEntryBytes)}).`,
          );
        total += entry.uncompressedSize;
        if (total > limits.maxUncompressedBytes)
          throw new ImportRefused(`The zip unpacks to more than ${mib(limits.maxUncompressedBytes)}.`);
        if (entry.uncompressedSize > RATIO_FREE_BYTES && entry.uncompressedSize / Math.max(entry.compressedSize, 1) > limits.maxRatio)
          throw new ImportRefused('The zip is compressed suspiciously well (a zip bomb?), so it is refused.');
        entries.set(name, entry);
        const fileId = /^(file[-_][A-Za-z0-9]+)/.exec(name.split('/').pop() ?? '')?.[1];
        if (fileId && !byFileId.has(fileId)) byFileId.set(fileId, entry);
      }
    } catch (error) {
      zip.close();
      if (error instanceof ImportRefused) throw error;
      throw new ImportRefused(`The zip is damaged or unsafe (${messageOf(error)}).`);
    }
    return new ExportZip(zip, entries, byFileId);
  }

  /** conversations.json at the top, or in one folder (some exports wrap everything in one). */
  conversationsEntry(): { size: number; open: () => Promise<Readable> } | null {
    const candidates = [...this.entries.keys()].filter((name) => name.split('/').pop() === 'conversations.json');
    const name = candidates.sort((a, b) => a.split('/').length - b.split('/').length)[0];
    if (!name) return null;
    const entry = this.entries.get(name)!;
    return { size: entry.uncompressedSize, open: () => this.zip.openReadStreamPromise(entry) };
  }

  /** A file of the zip by its ChatGPT file id, with its name (without the id) and declared size. */
  fileById(fileId: string): { name: string; size: number; open: () => Promise<Readable> } | null {
    const entry = this.byFileId.get(fileId);
    if (!entry) return null;
    const base = entry.fileName.split('/').pop() ?? fileId;
    const name = base.replace(/^file[-_][A-Za-z0-9]+[-_]?/, '') || base;
    return { name, size: entry.uncompressedSize, open: () => this.zip.openReadStreamPromise(entry) };
  }

  close(): void {
    this.zip.close();
  }
}

/** A relative path of plain segments: no absolute path, drive letter, backslash, `..` or NUL. */
export function safeName(name: string): boolean {
  if (!name || name.length > 1024 || name.includes('\0') || name.includes('\\')) return false;
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return false;
  return !name.split('/').some((segment) => segment === '..');
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 200);

/**
 * The elements of a JSON array, one at a time, as the bytes come (@streamparser/json): only the
 * element being read is in memory, never the file. Refuses (ImportRefused) a file that is not a
 * JSON array, is not valid JSON, or has an element over `maxElementBytes`.
 */
export async function* jsonArrayElements(bytes: AsyncIterable<Buffer>, maxElementBytes: number): AsyncGenerator<unknown> {
  const parser = new JSONParser({ paths: ['$.*'], keepStack: false });
  const ready: unknown[] = [];
  let failure: Error | null = null;
  let sinceLast = 0;
  let started = false;
  parser.onValue = ({ value }) => {
    ready.push(value);
    sinceLast = 0;
  };
  parser.onError = (error) => {
    failure ??= error;
  };
  const refuse = (why: string) => new ImportRefused(`conversations.json ${why}, so this is not an export that can be imported.`);
  try {
    for await (const chunk of bytes) {
      if (!started) {
        const first = chunk.toString('latin1').trimStart()[0];
        if (first === undefined) continue;
        if (first !== '[') throw refuse('is not a list of conversations');
        started = true;
      }
      if (parser.isEnded) {
        if (chunk.toString('latin1').trim()) throw refuse('has data after its end');
        continue;
      }
      parser.write(chunk);
      if (failure) throw refuse(`is not valid JSON (${messageOf(failure)})`);
      sinceLast += chunk.length;
      if (ready.length === 0 && sinceLast > maxElementBytes) throw refuse(`holds a conversation over ${mib(maxElementBytes)}`);
      while (ready.length) yield ready.shift();
    }
  } catch (error) {
    if (error instanceof ImportRefused) throw error;
    throw new ImportRefused(`The zip could not be read (${messageOf(error)}).`);
  }
  if (!started) throw refuse('is empty');
  if (!parser.isEnded) {
    parser.end();
    if (failure || !parser.isEnded) throw refuse('is cut short');
  }
  while (ready.length) yield ready.shift();
}
