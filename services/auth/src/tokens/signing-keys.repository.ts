import type { DataSource, EntityManager } from 'typeorm';
import { IsNull } from 'typeorm';
import { KeyEnvelope } from './key-envelope';
import { AuthSecretEntity, SigningKeyEntity } from './signing-key.entity';

/** A signing key with its private JWK opened (as held in memory, never as stored). */
export type SigningKey = Omit<SigningKeyEntity, 'privateJwk'> & { privateJwk: Record<string, unknown> };

const KEY_LOCK = "SELECT pg_advisory_xact_lock(hashtext('auth-signing-key'))";
const keyContext = (kid: string) => `auth.signing_key:${kid}`;
const secretContext = (name: string) => `auth.auth_secret:${name}`;

/**
 * The signing keys and the service's own secrets. Their private parts are stored sealed by the
 * envelope (AES-256-GCM) when a key encryption key is configured, and opened on the way out.
 */
export class SigningKeysRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly envelope: KeyEnvelope,
  ) {}

  /** The current key, created once (under a lock, so that replicas agree) when there is none. */
  async activeOrCreate(create: () => Promise<Omit<SigningKeyEntity, 'createdAt' | 'retiredAt'>>): Promise<SigningKey> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(KEY_LOCK);
      const current = await this.current(manager);
      if (current) return this.opened(current);
      const made = await create();
      await manager.save(
        SigningKeyEntity,
        manager.create(SigningKeyEntity, {
          ...made,
          privateJwk: this.envelope.sealJson(made.privateJwk, keyContext(made.kid)),
          retiredAt: null,
        }),
      );
      return this.opened((await this.current(manager))!);
    });
  }

  /** Every key a valid token may still be signed with (retired keys stay until their tokens expire), as stored. */
  all(): Promise<SigningKeyEntity[]> {
    return this.dataSource.getRepository(SigningKeyEntity).find({ order: { createdAt: 'DESC' } });
  }

  /** A secret made once and kept (same lock discipline as the keys). */
  async secret(name: string, create: () => string): Promise<string> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`auth-secret:${name}`]);
      const found = await manager.findOne(AuthSecretEntity, { where: { name } });
      if (found) return this.envelope.openText(found.value, secretContext(name));
      const value = create();
      await manager.insert(AuthSecretEntity, { name, value: this.envelope.sealText(value, secretContext(name)) });
      return value;
    });
  }

  private current(manager: EntityManager): Promise<SigningKeyEntity | null> {
    return manager.findOne(SigningKeyEntity, { where: { retiredAt: IsNull() }, order: { createdAt: 'DESC' } });
  }

  private opened(row: SigningKeyEntity): SigningKey {
    return { ...row, privateJwk: this.envelope.openJson(row.privateJwk, keyContext(row.kid)) };
  }
}

/**
 * At boot: every stored private part must open with the configured key (else the service must
 * not start: it could neither sign nor check codes), and what was stored in plaintext is sealed
 * now when a key is configured. Answers how many rows were sealed.
 */
export async function sealStoredKeyMaterial(dataSource: DataSource, envelope: KeyEnvelope): Promise<number> {
  envelope.check();
  return dataSource.transaction(async (manager) => {
    await manager.query(KEY_LOCK);
    let sealed = 0;
    for (const row of await manager.find(SigningKeyEntity, { lock: { mode: 'pessimistic_write' } })) {
      const plain = envelope.openJson(row.privateJwk, keyContext(row.kid));
      if (envelope.encrypting && !KeyEnvelope.isSealedJson(row.privateJwk)) {
        row.privateJwk = envelope.sealJson(plain, keyContext(row.kid));
        await manager.save(SigningKeyEntity, row);
        sealed += 1;
      }
    }
    for (const row of await manager.find(AuthSecretEntity, { lock: { mode: 'pessimistic_write' } })) {
      const plain = envelope.openText(row.value, secretContext(row.name));
      if (envelope.encrypting && !KeyEnvelope.isSealedText(row.value)) {
        await manager.update(AuthSecretEntity, { name: row.name }, { value: envelope.sealText(plain, secretContext(row.name)) });
        sealed += 1;
      }
    }
    return sealed;
  });
}
