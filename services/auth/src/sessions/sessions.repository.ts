import { IsNull, MoreThan, type EntityManager } from 'typeorm';
import { SessionEntity } from './session.entity';

export class SessionsRepository {
  constructor(private readonly manager: EntityManager) {}

  async insert(session: Omit<SessionEntity, 'createdAt' | 'revokedAt'>): Promise<void> {
    await this.manager.insert(SessionEntity, { ...session, revokedAt: null });
  }

  find(id: string): Promise<SessionEntity | null> {
    return this.manager.findOne(SessionEntity, { where: { id } });
  }

  /** Sessions still usable (not revoked, not expired). */
  active(userId: string): Promise<SessionEntity[]> {
    return this.manager.find(SessionEntity, { where: { userId, revokedAt: IsNull(), expiresAt: MoreThan(new Date()) } });
  }

  async revoke(ids: string[]): Promise<void> {
    if (ids.length) await this.manager.createQueryBuilder().update(SessionEntity).set({ revokedAt: () => 'now()' }).whereInIds(ids).andWhere('revoked_at IS NULL').execute();
  }
}
