import { IsNull, MoreThan, type EntityManager } from 'typeorm';
import { SessionEntity } from './session.entity';

/** What the database says about one session, for the gateway's check. */
export interface SessionState {
  userId: string;
  revokedAt: Date | null;
  expiresAt: Date;
  /** The user asked for their account to be deleted (the purge is under way). */
  deleting: boolean;
}

export class SessionsRepository {
  constructor(private readonly manager: EntityManager) {}

  async insert(session: Omit<SessionEntity, 'createdAt' | 'revokedAt'>): Promise<void> {
    await this.manager.insert(SessionEntity, { ...session, revokedAt: null });
  }

  find(id: string): Promise<SessionEntity | null> {
    return this.manager.findOne(SessionEntity, { where: { id } });
  }

  /** The session with its user's deletion state (a session row exists only while its user does). */
  async state(id: string): Promise<SessionState | null> {
    const rows: { user_id: string; revoked_at: Date | null; expires_at: Date; deleting: boolean }[] = await this.manager.query(
      `SELECT s.user_id, s.revoked_at, s.expires_at,
              EXISTS (SELECT 1 FROM account_deletion d WHERE d.user_id = s.user_id AND d.completed_at IS NULL) AS deleting
         FROM session s WHERE s.id = $1`,
      [id],
    );
    const row = rows[0];
    return row ? { userId: row.user_id, revokedAt: row.revoked_at, expiresAt: new Date(row.expires_at), deleting: row.deleting } : null;
  }

  /** Sessions still usable (not revoked, not expired). */
  active(userId: string): Promise<SessionEntity[]> {
    return this.manager.find(SessionEntity, { where: { userId, revokedAt: IsNull(), expiresAt: MoreThan(new Date()) } });
  }

  async revoke(ids: string[]): Promise<void> {
    if (ids.length)
      await this.manager
        .createQueryBuilder()
        .update(SessionEntity)
        .set({ revokedAt: () => 'now()' })
        .whereInIds(ids)
        .andWhere('revoked_at IS NULL')
        .execute();
  }
}
