import type { DataSource } from 'typeorm';
import { IsNull } from 'typeorm';
import { AuthSecretEntity, SigningKeyEntity } from './signing-key.entity';

export class SigningKeysRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The current key, created once (under a lock, so that replicas agree) when there is none. */
  async activeOrCreate(create: () => Promise<Omit<SigningKeyEntity, 'createdAt' | 'retiredAt'>>): Promise<SigningKeyEntity> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query("SELECT pg_advisory_xact_lock(hashtext('auth-signing-key'))");
      const current = await manager.findOne(SigningKeyEntity, { where: { retiredAt: IsNull() }, order: { createdAt: 'DESC' } });
      if (current) return current;
      await manager.save(SigningKeyEntity, manager.create(SigningKeyEntity, { ...(await create()), retiredAt: null }));
      return (await manager.findOne(SigningKeyEntity, { where: { retiredAt: IsNull() }, order: { createdAt: 'DESC' } }))!;
    });
  }

  /** Every key a valid token may still be signed with (retired keys stay until their tokens expire). */
  all(): Promise<SigningKeyEntity[]> {
    return this.dataSource.getRepository(SigningKeyEntity).find({ order: { createdAt: 'DESC' } });
  }

  /** A secret made once and kept (same lock discipline as the keys). */
  async secret(name: string, create: () => string): Promise<string> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`auth-secret:${name}`]);
      const found = await manager.findOne(AuthSecretEntity, { where: { name } });
      if (found) return found.value;
      const value = create();
      await manager.insert(AuthSecretEntity, { name, value });
      return value;
    });
  }
}
