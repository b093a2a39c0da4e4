import { randomBytes, randomUUID } from 'node:crypto';
import { serviceDatabase, type ServiceDatabase } from '@app/testing';
import { authService } from '../index';
import { authMigrations } from '../migrations';
import { KeyEnvelope } from '../tokens/key-envelope';
import { AuthUnitOfWork } from './auth-unit-of-work';

const DAY_MS = 86_400_000;

/**
 * The auth schema's hand-written SQL against the real PostgreSQL, through the store the service
 * uses: a session's state knows its user's deletion, a revoke revokes once, an account's purge
 * takes its sessions, identities and codes with it, and replicas agree on one signing key and one
 * secret, sealed at rest when a key encryption key is set.
 */
describe('AuthUnitOfWork on PostgreSQL', () => {
  let db: ServiceDatabase;
  let store: AuthUnitOfWork;
  const envelope = new KeyEnvelope(randomBytes(32));

  beforeAll(async () => {
    db = await serviceDatabase({ label: 'authstore', schema: 'auth', entities: authService.entities, migrations: authMigrations });
    store = new AuthUnitOfWork(db.source, envelope);
  });

  afterAll(() => db?.drop());

  async function userWithSession(phoneNumber: string | null = null) {
    const { users, sessions } = store.repos;
    const user = await users.save(users.create({ id: randomUUID(), isAnon: false, phoneNumber }));
    const sessionId = randomUUID();
    await sessions.insert({ id: sessionId, userId: user.id, expiresAt: new Date(Date.now() + DAY_MS), ip: null, userAgent: null });
    return { userId: user.id, sessionId };
  }

  it("tells a session's state with its user's deletion under way", async () => {
    const { userId, sessionId } = await userWithSession();
    expect(await store.repos.sessions.state(sessionId)).toMatchObject({ userId, revokedAt: null, deleting: false });

    const deletionId = randomUUID();
    await store.repos.deletions.insert(deletionId, userId, ['chat', 'memory']);
    expect(await store.repos.sessions.state(sessionId)).toMatchObject({ deleting: true });
    expect((await store.repos.deletions.openForUser(userId))?.id).toBe(deletionId);
    expect(await store.repos.sessions.state(randomUUID())).toBeNull();
  });

  it('revokes a session once: its first revocation time stays', async () => {
    const { userId, sessionId } = await userWithSession();
    await store.repos.sessions.revoke([sessionId]);
    const first = (await store.repos.sessions.state(sessionId))?.revokedAt;
    expect(first).toBeInstanceOf(Date);
    expect(await store.repos.sessions.active(userId)).toEqual([]);

    await store.transaction((repos) => repos.sessions.revoke([sessionId]));
    expect((await store.repos.sessions.state(sessionId))?.revokedAt).toEqual(first);
  });

  it("purges an account with its sessions, identities and phone codes, and only that account's", async () => {
    const phone = `+1415555${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;
    const gone = await userWithSession(phone);
    const kept = await userWithSession();
    await store.repos.users.addIdentity(gone.userId, 'google', `sub-${randomUUID()}`, 'gone@example.com');
    await db.source.query(
      "INSERT INTO phone_code (id, phone_number, code_hash, expires_at) VALUES ($1, $2, 'x', now() + interval '5 minutes')",
      [randomUUID(), phone],
    );

    await store.transaction((repos) => repos.deletions.purgeUser(gone.userId, phone));

    expect(await store.repos.users.find(gone.userId)).toBeNull();
    expect(await store.repos.sessions.state(gone.sessionId)).toBeNull();
    expect(await db.source.query('SELECT 1 FROM identity WHERE user_id = $1', [gone.userId])).toEqual([]);
    expect(await db.source.query('SELECT 1 FROM phone_code WHERE phone_number = $1', [phone])).toEqual([]);
    expect(await store.repos.sessions.state(kept.sessionId)).not.toBeNull();
  });

  it('makes one signing key and one secret for replicas starting together, sealed at rest', async () => {
    const replicas = [store, new AuthUnitOfWork(db.source, envelope), new AuthUnitOfWork(db.source, envelope)];
    let made = 0;
    const keys = await Promise.all(
      replicas.map((replica) =>
        replica.keys.activeOrCreate(async () => {
          made += 1;
          const kid = randomUUID();
          return { kid, privateJwk: { kty: 'OKP', d: `private-${kid}` }, publicJwk: { kty: 'OKP', x: `public-${kid}` } };
        }),
      ),
    );
    expect(made).toBe(1);
    expect(new Set(keys.map((k) => k.kid)).size).toBe(1);
    expect(keys[0].privateJwk).toMatchObject({ kty: 'OKP' });
    const [stored] = (await db.source.query('SELECT private_jwk FROM signing_key')) as { private_jwk: unknown }[];
    expect(KeyEnvelope.isSealedJson(stored.private_jwk)).toBe(true);

    const secrets = await Promise.all(replicas.map((replica) => replica.keys.secret('code-pepper', () => randomUUID())));
    expect(new Set(secrets).size).toBe(1);
    const [value] = (await db.source.query("SELECT value FROM auth_secret WHERE name = 'code-pepper'")) as { value: string }[];
    expect(value.value).not.toBe(secrets[0]);
    expect(KeyEnvelope.isSealedText(value.value)).toBe(true);
  });
});
