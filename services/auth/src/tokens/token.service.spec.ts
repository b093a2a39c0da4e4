import { AppLogger } from '@app/platform';
import { randomBytes } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import type { AuthData } from '../store/auth-unit-of-work';
import { KeyEnvelope, KeyEnvelopeError } from './key-envelope';
import { AuthSecretEntity, SigningKeyEntity } from './signing-key.entity';
import { sealStoredKeyMaterial, SigningKeysRepository, type SigningKey } from './signing-keys.repository';
import { TOKEN_ALGORITHM, TokenService } from './token.service';

type Jose = typeof import('jose');
const jose = (): Promise<Jose> => import('jose');

/** The signing_key and auth_secret tables, behind the few EntityManager calls the repository makes. */
class FakeKeyTables {
  keys: SigningKeyEntity[] = [];
  secrets: AuthSecretEntity[] = [];
  private clock = 0;

  readonly manager = {
    query: async () => [],
    create: (_entity: unknown, fields: Partial<SigningKeyEntity>) => Object.assign(new SigningKeyEntity(), fields),
    save: async (_entity: unknown, row: SigningKeyEntity) => {
      const stored = this.keys.find((k) => k.kid === row.kid);
      if (stored) Object.assign(stored, row);
      else this.keys.push(Object.assign(new SigningKeyEntity(), { ...row, createdAt: new Date(Date.UTC(2026, 0, 1) + ++this.clock) }));
      return row;
    },
    findOne: async (entity: unknown, options: { where: { name?: string } }) =>
      entity === SigningKeyEntity
        ? ([...this.keys].reverse().find((k) => k.retiredAt === null) ?? null)
        : (this.secrets.find((s) => s.name === options.where.name) ?? null),
    find: async (entity: unknown) => (entity === SigningKeyEntity ? this.keys : this.secrets).map((row) => ({ ...row })),
    insert: async (_entity: unknown, row: AuthSecretEntity) => void this.secrets.push({ ...row }),
    update: async (_entity: unknown, where: { name: string }, change: Partial<AuthSecretEntity>) =>
      Object.assign(
        this.secrets.find((s) => s.name === where.name)!,
        change,
      ),
  } as unknown as EntityManager;

  readonly dataSource = {
    transaction: <T>(work: (manager: EntityManager) => Promise<T>) => work(this.manager),
    getRepository: () => ({ find: async () => [...this.keys].reverse() }),
  } as unknown as DataSource;

  retireCurrent(): void {
    for (const key of this.keys) key.retiredAt ??= new Date();
  }
}

const silent = () => new AppLogger({ service: 'auth', level: 'error', format: 'json', sink: () => undefined });
const config = { AUTH_TOKEN_ISSUER: 'assistant', AUTH_TOKEN_AUDIENCE: 'assistant-api' };

function tokenService(tables: FakeKeyTables, envelope = new KeyEnvelope(randomBytes(32))): TokenService {
  const repository = new SigningKeysRepository(tables.dataSource, envelope);
  const store = { keys: repository } as unknown as AuthData;
  return new TokenService(store, config, silent(), envelope, tables.dataSource);
}

const claims = {
  userId: '00000000-0000-4000-8000-0000000000ad',
  sessionId: '00000000-0000-4000-8000-0000000000a1',
  isAnon: false,
  expiresAt: new Date(Date.now() + 3600_000),
};

async function verifyWith(published: Awaited<ReturnType<TokenService['publicKeys']>>, token: string) {
  const { createLocalJWKSet, jwtVerify } = await jose();
  return jwtVerify(token, createLocalJWKSet({ keys: published.keys }), {
    issuer: published.issuer,
    audience: published.audience,
    algorithms: published.algorithms,
  });
}

describe('TokenService', () => {
  it('issues ES256 tokens that verify with the published keys, carrying user, session, guest flag, expiry and a fresh id', async () => {
    const tokens = tokenService(new FakeKeyTables());
    const token = await tokens.issue(claims);
    const published = await tokens.publicKeys();
    expect(published).toMatchObject({ issuer: 'assistant', audience: 'assistant-api', algorithms: [TOKEN_ALGORITHM] });
    const { payload, protectedHeader } = await verifyWith(published, token);
    expect(protectedHeader).toEqual({ alg: 'ES256', kid: published.keys[0].kid, typ: 'JWT' });
    expect(payload).toMatchObject({
      sub: claims.userId,
      sid: claims.sessionId,
      anon: false,
      iss: 'assistant',
      aud: 'assistant-api',
      exp: Math.floor(claims.expiresAt.getTime() / 1000),
    });
    const again = await verifyWith(published, await tokens.issue({ ...claims, isAnon: true }));
    expect(again.payload.anon).toBe(true);
    expect(again.payload.jti).not.toBe(payload.jti);
  });

  it('publishes only public parts, marked for signatures', async () => {
    const tokens = tokenService(new FakeKeyTables());
    const [key] = (await tokens.publicKeys()).keys as unknown as Record<string, unknown>[];
    expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(key).not.toHaveProperty('d');
  });

  it('makes one key and keeps using it; another instance (a replica) takes the same one', async () => {
    const tables = new FakeKeyTables();
    const envelope = new KeyEnvelope(randomBytes(32));
    const first = tokenService(tables, envelope);
    await first.issue(claims);
    await first.issue(claims);
    const replica = tokenService(tables, envelope);
    expect(tables.keys).toHaveLength(1);
    expect((await replica.publicKeys()).keys.map((k) => k.kid)).toEqual([tables.keys[0].kid]);
  });

  it('after a rotation, signs with the new key while tokens of the retired one still verify', async () => {
    const tables = new FakeKeyTables();
    const envelope = new KeyEnvelope(randomBytes(32));
    const old = await tokenService(tables, envelope).issue(claims);
    tables.retireCurrent();
    const restarted = tokenService(tables, envelope);
    const fresh = await restarted.issue(claims);
    const published = await restarted.publicKeys();
    expect(published.keys).toHaveLength(2);
    const kids = [(await verifyWith(published, old)).protectedHeader.kid, (await verifyWith(published, fresh)).protectedHeader.kid];
    expect(kids[0]).not.toBe(kids[1]);
    expect(published.keys[0].kid).toBe(kids[1]);
  });

  it('tries again after a failure to get the key, rather than failing every later sign-in', async () => {
    const tables = new FakeKeyTables();
    const tokens = tokenService(tables);
    const transaction = jest.spyOn(tables.dataSource, 'transaction').mockRejectedValueOnce(new Error('database away'));
    await expect(tokens.issue(claims)).rejects.toThrow('database away');
    await expect(tokens.issue(claims)).resolves.toEqual(expect.any(String));
    expect(transaction).toHaveBeenCalledTimes(2);
  });
});

describe('SigningKeysRepository and the key envelope', () => {
  const made = async () => {
    const { exportJWK, generateKeyPair } = await jose();
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    return {
      kid: `k-${randomBytes(4).toString('hex')}`,
      privateJwk: (await exportJWK(privateKey)) as Record<string, unknown>,
      publicJwk: (await exportJWK(publicKey)) as Record<string, unknown>,
    };
  };

  it('stores a new key sealed and hands it out opened', async () => {
    const tables = new FakeKeyTables();
    const envelope = new KeyEnvelope(randomBytes(32));
    const key: SigningKey = await new SigningKeysRepository(tables.dataSource, envelope).activeOrCreate(made);
    expect(KeyEnvelope.isSealedJson(tables.keys[0].privateJwk)).toBe(true);
    expect(key.privateJwk).toHaveProperty('d');
  });

  it('stores keys as they are without a key encryption key', async () => {
    const tables = new FakeKeyTables();
    await new SigningKeysRepository(tables.dataSource, new KeyEnvelope(null)).activeOrCreate(made);
    expect(tables.keys[0].privateJwk).toHaveProperty('d');
  });

  it('makes a secret once, stores it sealed, and answers the same value after', async () => {
    const tables = new FakeKeyTables();
    const repository = new SigningKeysRepository(tables.dataSource, new KeyEnvelope(randomBytes(32)));
    const create = jest.fn(() => 'pepper');
    expect(await repository.secret('phone-code-pepper', create)).toBe('pepper');
    expect(await repository.secret('phone-code-pepper', create)).toBe('pepper');
    expect(create).toHaveBeenCalledTimes(1);
    expect(tables.secrets[0].value).not.toContain('pepper');
  });

  it('at boot, seals what was stored in plaintext and leaves sealed rows alone', async () => {
    const tables = new FakeKeyTables();
    await new SigningKeysRepository(tables.dataSource, new KeyEnvelope(null)).activeOrCreate(made);
    await new SigningKeysRepository(tables.dataSource, new KeyEnvelope(null)).secret('pepper', () => 'p');
    const envelope = new KeyEnvelope(randomBytes(32));
    expect(await sealStoredKeyMaterial(tables.dataSource, envelope)).toBe(2);
    expect(KeyEnvelope.isSealedJson(tables.keys[0].privateJwk)).toBe(true);
    expect(KeyEnvelope.isSealedText(tables.secrets[0].value)).toBe(true);
    expect(await sealStoredKeyMaterial(tables.dataSource, envelope)).toBe(0);
    expect(await new SigningKeysRepository(tables.dataSource, envelope).secret('pepper', () => 'other')).toBe('p');
  });

  it('at boot, refuses to start when a sealed row does not open with the configured key (or with none)', async () => {
    const tables = new FakeKeyTables();
    await new SigningKeysRepository(tables.dataSource, new KeyEnvelope(randomBytes(32))).activeOrCreate(made);
    await expect(sealStoredKeyMaterial(tables.dataSource, new KeyEnvelope(randomBytes(32)))).rejects.toThrow(KeyEnvelopeError);
    await expect(sealStoredKeyMaterial(tables.dataSource, new KeyEnvelope(null))).rejects.toThrow(KeyEnvelopeError);
  });

  it('at boot, throws the problem met while looking for the key before touching any row', async () => {
    const tables = new FakeKeyTables();
    const transaction = jest.spyOn(tables.dataSource, 'transaction');
    await expect(sealStoredKeyMaterial(tables.dataSource, new KeyEnvelope(null, new Error('key file unreadable')))).rejects.toThrow(
      'key file unreadable',
    );
    expect(transaction).not.toHaveBeenCalled();
  });
});
