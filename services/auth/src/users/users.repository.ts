import type { EntityManager } from 'typeorm';
import { IdentityEntity, type IdentityProvider } from './identity.entity';
import { newUser, UserEntity } from './user.entity';

export class UsersRepository {
  constructor(private readonly manager: EntityManager) {}

  find(id: string): Promise<UserEntity | null> {
    return this.manager.findOne(UserEntity, { where: { id } });
  }

  /** Locks the row for the rest of the transaction. */
  findForUpdate(id: string): Promise<UserEntity | null> {
    return this.manager.findOne(UserEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  findByPhone(phoneNumber: string): Promise<UserEntity | null> {
    return this.manager.findOne(UserEntity, { where: { phoneNumber } });
  }

  save(user: UserEntity): Promise<UserEntity> {
    return this.manager.save(UserEntity, user);
  }

  create(fields: Partial<UserEntity> & Pick<UserEntity, 'id' | 'isAnon'>): UserEntity {
    return newUser(fields);
  }

  async delete(id: string): Promise<void> {
    await this.manager.delete(UserEntity, { id });
  }

  findIdentity(provider: IdentityProvider, subject: string): Promise<IdentityEntity | null> {
    return this.manager.findOne(IdentityEntity, { where: { provider, subject } });
  }

  async addIdentity(userId: string, provider: IdentityProvider, subject: string, email: string | null): Promise<void> {
    await this.manager.insert(IdentityEntity, { userId, provider, subject, email });
  }
}
