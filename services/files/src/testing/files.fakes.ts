import type { PublicOf } from '@app/platform';
import { Readable } from 'node:stream';
import type { FileRecord, NewFileRecord, UploadSessionRecord, FilesRepository } from '../files/files.repository';
import { ObjectNotFoundError, readAll, type ObjectStore } from '../store/object-store';

/** The object store in memory. */
export class MemoryObjects implements ObjectStore {
  readonly kind = 'local' as const;
  readonly objects = new Map<string, Buffer>();
  async put(key: string, body: Buffer | Readable, size: number) {
    const bytes = Buffer.isBuffer(body) ? body : await readAll(body);
    if (bytes.length !== size) throw new Error('size mismatch');
    this.objects.set(key, bytes);
  }
  async get(key: string) {
    const bytes = this.objects.get(key);
    if (!bytes) throw new ObjectNotFoundError(key);
    return Readable.from([bytes]);
  }
  async exists(key: string) {
    return this.objects.has(key);
  }
  async delete(keys: readonly string[]) {
    for (const key of keys) this.objects.delete(key);
  }
  async check() {}
}

/** The files tables in memory, with the repository's rules (an upload advances in order, closes once). */
export class MemoryFiles implements PublicOf<FilesRepository> {
  readonly files = new Map<string, FileRecord>();
  readonly sessions = new Map<string, UploadSessionRecord>();
  async findFile(id: string) {
    return this.files.get(id) ?? null;
  }
  async insertFile(file: NewFileRecord) {
    const record = { ...file, derivedKeys: [], createdAt: new Date() };
    this.files.set(file.id, record);
    return record;
  }
  async addDerivedKey(id: string, key: string) {
    const file = this.files.get(id);
    if (file && !file.derivedKeys.includes(key)) file.derivedKeys.push(key);
  }
  async deleteFile(id: string, userId: string) {
    return this.files.get(id)?.userId === userId && this.files.delete(id);
  }
  async filesOf(userId: string) {
    return [...this.files.values()].filter((f) => f.userId === userId);
  }
  async insertSession(s: Pick<UploadSessionRecord, 'id' | 'userId' | 'filename' | 'declaredType' | 'source'>) {
    this.sessions.set(s.id, { ...s, mimeType: null, receivedBytes: 0, nextSeq: 0, createdAt: new Date(), updatedAt: new Date() });
  }
  async findSession(id: string, userId: string) {
    const s = this.sessions.get(id);
    return s && s.userId === userId ? { ...s } : null;
  }
  async advanceSession(id: string, userId: string, seq: number, bytes: number, mimeType: string | null) {
    const s = this.sessions.get(id);
    if (!s || s.userId !== userId || s.nextSeq !== seq) return null;
    Object.assign(s, { nextSeq: seq + 1, receivedBytes: s.receivedBytes + bytes, mimeType: s.mimeType ?? mimeType });
    return { ...s };
  }
  async closeSession(id: string, userId: string, parts: number) {
    const s = this.sessions.get(id);
    if (!s || s.userId !== userId || s.nextSeq !== parts) return false;
    s.nextSeq = -1 - parts;
    return true;
  }
  async deleteSession(id: string) {
    return this.sessions.delete(id);
  }
  async openSessionCount(userId: string) {
    return [...this.sessions.values()].filter((s) => s.userId === userId).length;
  }
  async sessionsOf(userId: string) {
    return [...this.sessions.values()].filter((s) => s.userId === userId);
  }
  async sessionsIdleSince() {
    return [];
  }
  async signingSecret() {
    return 's'.repeat(32);
  }
}
