import { IsNull, LessThan, type EntityManager } from 'typeorm';
import { AccountDeletionEntity } from './account-deletion.entity';

export class AccountDeletionsRepository {
  constructor(private readonly manager: EntityManager) {}

  async insert(id: string, userId: string, pendingServices: string[]): Promise<void> {
    await this.manager.insert(AccountDeletionEntity, { id, userId, pendingServices, lastPublishedAt: new Date(), completedAt: null });
  }

  find(id: string): Promise<AccountDeletionEntity | null> {
    return this.manager.findOne(AccountDeletionEntity, { where: { id } });
  }

  findForUpdate(id: string): Promise<AccountDeletionEntity | null> {
    return this.manager.findOne(AccountDeletionEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  /** An unfinished deletion of this user, if one is already under way. */
  openForUser(userId: string): Promise<AccountDeletionEntity | null> {
    return this.manager.findOne(AccountDeletionEntity, { where: { userId, completedAt: IsNull() } });
  }

  save(deletion: AccountDeletionEntity): Promise<AccountDeletionEntity> {
    return this.manager.save(AccountDeletionEntity, deletion);
  }

  /** Unfinished deletions whose request was last published before `before`. */
  stale(before: Date): Promise<AccountDeletionEntity[]> {
    return this.manager.find(AccountDeletionEntity, { where: { completedAt: IsNull(), lastPublishedAt: LessThan(before) } });
  }

  /** Removes every row of the user in this schema (the deletion record loses its user id). */
  async purgeUser(userId: string, phoneNumber: string | null): Promise<void> {
    if (phoneNumber) await this.manager.query('DELETE FROM phone_code WHERE phone_number = $1', [phoneNumber]);
    await this.manager.query('DELETE FROM phone_code WHERE guest_user_id = $1', [userId]);
    // identity, session, invite_link and invite_redemption go with the user (ON DELETE CASCADE).
    await this.manager.query('DELETE FROM app_user WHERE id = $1', [userId]);
  }
}
