import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource, LessThan } from 'typeorm';
import { lockLivingUser } from '@app/platform';
import { UploadSessionEntity } from '../uploads/upload-session.entity';
import { FileObjectEntity } from './file-object.entity';

export type FileRecord = Omit<FileObjectEntity, 'createdAt'> & { createdAt: Date };
export type NewFileRecord = Omit<FileRecord, 'createdAt' | 'derivedKeys'>;
export type UploadSessionRecord = UploadSessionEntity;

/** What the files logic needs from its tables (a typed fake stands in for it in unit tests). */
export interface FilesStore {
  findFile(id: string): Promise<FileRecord | null>;
  insertFile(file: NewFileRecord): Promise<FileRecord>;
  addDerivedKey(id: string, key: string): Promise<void>;
  filesOf(userId: string): Promise<FileRecord[]>;
  /** Removes a file's row; answers whether it was there. */
  deleteFile(id: string, userId: string): Promise<boolean>;

  insertSession(session: Pick<UploadSessionRecord, 'id' | 'userId' | 'filename' | 'declaredType' | 'source'>): Promise<void>;
  findSession(id: string, userId: string): Promise<UploadSessionRecord | null>;
  /**
   * Records chunk `seq` of `bytes` bytes when it is the next one expected; answers the session as
   * it is then, or null when `seq` is not the next one (or the session is gone).
   */
  advanceSession(id: string, userId: string, seq: number, bytes: number, mimeType: string | null): Promise<UploadSessionRecord | null>;
  /** Closes an open session holding `parts` parts (next_seq becomes -1 - parts); false when another call did first. */
  closeSession(id: string, userId: string, parts: number): Promise<boolean>;
  /** Removes the session row; answers whether it was there (only one caller wins a commit). */
  deleteSession(id: string): Promise<boolean>;
  openSessionCount(userId: string): Promise<number>;
  sessionsOf(userId: string): Promise<UploadSessionRecord[]>;
  sessionsIdleSince(before: Date): Promise<UploadSessionRecord[]>;

  /** The key of the signed links: made once, kept in the schema, shared by every replica. */
  signingSecret(): Promise<string>;
}

@Injectable()
export class FilesRepository implements FilesStore {
  private secret?: Promise<string>;

  constructor(private readonly dataSource: DataSource) {}

  private get files() {
    return this.dataSource.getRepository(FileObjectEntity);
  }
  private get sessions() {
    return this.dataSource.getRepository(UploadSessionEntity);
  }

  findFile(id: string): Promise<FileRecord | null> {
    return this.files.findOne({ where: { id } });
  }

  async insertFile(file: NewFileRecord): Promise<FileRecord> {
    return this.files.save(this.files.create({ ...file, derivedKeys: [] }));
  }

  async addDerivedKey(id: string, key: string): Promise<void> {
    await this.dataSource.query(
      'UPDATE file_object SET derived_keys = array_append(derived_keys, $2) WHERE id = $1 AND NOT ($2 = ANY(derived_keys))',
      [id, key],
    );
  }

  filesOf(userId: string): Promise<FileRecord[]> {
    return this.files.find({ where: { userId }, order: { createdAt: 'ASC' } });
  }

  async deleteFile(id: string, userId: string): Promise<boolean> {
    const result = await this.files.delete({ id, userId });
    return (result.affected ?? 0) > 0;
  }

  /** An upload starts only for a user whose account still exists. */
  async insertSession(session: Pick<UploadSessionRecord, 'id' | 'userId' | 'filename' | 'declaredType' | 'source'>): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await lockLivingUser(manager, session.userId);
      await manager.insert(UploadSessionEntity, { ...session, mimeType: null, receivedBytes: 0, nextSeq: 0 });
    });
  }

  findSession(id: string, userId: string): Promise<UploadSessionRecord | null> {
    return this.sessions.findOne({ where: { id, userId } });
  }

  async advanceSession(
    id: string,
    userId: string,
    seq: number,
    bytes: number,
    mimeType: string | null,
  ): Promise<UploadSessionRecord | null> {
    // An UPDATE answers [rows, affected] through TypeORM's query().
    const [rows]: [{ id: string }[], number] = await this.dataSource.query(
      `UPDATE upload_session SET next_seq = next_seq + 1, received_bytes = received_bytes + $4,
         mime_type = COALESCE(mime_type, $5), updated_at = now()
       WHERE id = $1 AND user_id = $2 AND next_seq = $3 RETURNING id`,
      [id, userId, seq, bytes, mimeType],
    );
    return rows.length ? this.findSession(id, userId) : null;
  }

  async closeSession(id: string, userId: string, parts: number): Promise<boolean> {
    const [rows]: [unknown[], number] = await this.dataSource.query(
      'UPDATE upload_session SET next_seq = -1 - next_seq, updated_at = now() WHERE id = $1 AND user_id = $2 AND next_seq = $3 AND next_seq >= 0 RETURNING id',
      [id, userId, parts],
    );
    return rows.length > 0;
  }

  async deleteSession(id: string): Promise<boolean> {
    const result = await this.sessions.delete({ id });
    return (result.affected ?? 0) > 0;
  }

  openSessionCount(userId: string): Promise<number> {
    return this.sessions.count({ where: { userId } });
  }

  sessionsOf(userId: string): Promise<UploadSessionRecord[]> {
    return this.sessions.find({ where: { userId } });
  }

  sessionsIdleSince(before: Date): Promise<UploadSessionRecord[]> {
    return this.sessions.find({ where: { updatedAt: LessThan(before) }, take: 100 });
  }

  signingSecret(): Promise<string> {
    this.secret ??= (async () => {
      await this.dataSource.query(`INSERT INTO files_secret (name, value) VALUES ('view-links', $1) ON CONFLICT (name) DO NOTHING`, [
        randomBytes(32).toString('base64url'),
      ]);
      const [row] = (await this.dataSource.query(`SELECT value FROM files_secret WHERE name = 'view-links'`)) as { value: string }[];
      return row.value;
    })().catch((error: unknown) => {
      this.secret = undefined;
      throw error;
    });
    return this.secret;
  }
}
