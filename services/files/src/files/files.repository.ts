import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource, LessThan } from 'typeorm';
import { lockLivingUser } from '@app/platform';
import { UploadSessionEntity } from '../uploads/upload-session.entity';
import { FileObjectEntity } from './file-object.entity';

export type FileRecord = Omit<FileObjectEntity, 'createdAt'> & { createdAt: Date };
export type NewFileRecord = Omit<FileRecord, 'createdAt' | 'derivedKeys'>;
export type UploadSessionRecord = UploadSessionEntity;

/** The files' tables, the only place their SQL lives (a typed fake stands in for it in unit tests). */
@Injectable()
export class FilesRepository {
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

  /** Removes a file's row; answers whether it was there. */
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

  /**
   * Records chunk `seq` of `bytes` bytes when it is the next one expected; answers the session as
   * it is then, or null when `seq` is not the next one (or the session is gone).
   */
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

  /** Closes an open session holding `parts` parts (next_seq becomes -1 - parts); false when another call did first. */
  async closeSession(id: string, userId: string, parts: number): Promise<boolean> {
    const [rows]: [unknown[], number] = await this.dataSource.query(
      'UPDATE upload_session SET next_seq = -1 - next_seq, updated_at = now() WHERE id = $1 AND user_id = $2 AND next_seq = $3 AND next_seq >= 0 RETURNING id',
      [id, userId, parts],
    );
    return rows.length > 0;
  }

  /** Removes the session row; answers whether it was there (only one caller wins a commit). */
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

  /** The key of the signed links: made once, kept in the schema, shared by every replica. */
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
