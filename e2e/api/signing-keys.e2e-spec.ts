import { randomBytes } from 'node:crypto';
import { bootEmbedded, type EmbeddedStack } from '@app/embedded';
import { createTestEnvironment, TRANSPORTS, type TestEnvironment } from '@app/testing';
import { Client } from 'pg';
import { ApiClient, phoneNumbers } from '../support/api-client';

/**
 * The auth service's private material at rest (issue 11, item 10): the signing keys' private JWKs
 * and the phone-code pepper are sealed with AES-256-GCM under AUTH_KEY_ENCRYPTION_KEY. Rows written
 * before (plaintext) keep working and are sealed at the next start; a wrong or missing key stops the
 * service at boot instead of failing every sign-in.
 */
describe.each(TRANSPORTS)('signing keys at rest over the %s transport', (transport) => {
  let environment: TestEnvironment;
  let db: Client;
  let stack: EmbeddedStack | undefined;
  const key = randomBytes(32).toString('base64');
  const nextPhone = phoneNumbers(transport === 'nats' ? 7300 : 7400);

  const boot = async (env: NodeJS.ProcessEnv = {}) => {
    stack = await bootEmbedded({ ...environment.env, DEV_SMS_INBOX: 'true', ...env });
    return stack;
  };
  const stop = async () => {
    await stack?.close();
    stack = undefined;
  };
  const stored = async () => ({
    keys: (await db.query('SELECT kid, private_jwk FROM auth.signing_key')).rows as { kid: string; private_jwk: Record<string, unknown> }[],
    secrets: (await db.query('SELECT name, value FROM auth.auth_secret')).rows as { name: string; value: string }[],
  });

  beforeAll(async () => {
    environment = await createTestEnvironment('signingkeys', transport);
    db = new Client({ connectionString: environment.database.url });
    await db.connect();
  });
  afterAll(async () => {
    await stop();
    await db.end();
    await environment.cleanup();
  });

  it('seals keys written in plaintext at the next start; tokens and codes made before still work', async () => {
    // Before encryption (no key, a shared database outside production): plaintext, as older installs have it.
    const before = await boot();
    const guest = new ApiClient(before.url);
    await guest.guest();
    const account = new ApiClient(before.url);
    const phone = nextPhone();
    await account.signInByPhone(phone);
    const plain = await stored();
    expect(plain.keys).toEqual([expect.objectContaining({ private_jwk: expect.objectContaining({ kty: 'EC', d: expect.any(String) }) })]);
    expect(plain.secrets).toEqual([{ name: 'phone-code-pepper', value: expect.not.stringMatching(/^sealed:/) }]);
    await stop();

    const after = await boot({ AUTH_KEY_ENCRYPTION_KEY: key });
    const sealed = await stored();
    expect(sealed.keys).toEqual([
      {
        kid: plain.keys[0].kid,
        private_jwk: {
          sealed: 'A256GCM',
          kek: expect.any(String),
          iv: expect.any(String),
          tag: expect.any(String),
          ct: expect.any(String),
        },
      },
    ]);
    expect(JSON.stringify(sealed)).not.toContain(String(plain.keys[0].private_jwk.d));
    expect(sealed.secrets).toEqual([{ name: 'phone-code-pepper', value: expect.stringMatching(/^sealed:A256GCM:/) }]);
    expect(JSON.stringify(sealed)).not.toContain(plain.secrets[0].value);

    // The same key signs on: tokens issued before are accepted, new ones are made, codes check.
    const client = (token: string | null) => Object.assign(new ApiClient(after.url), { token });
    await client(guest.token).get('/api/v1/auth/me').expect(200);
    await client(account.token).get('/api/v1/auth/me').expect(200);
    const again = new ApiClient(after.url);
    await again.signInByPhone(phone);
    expect((await again.get('/api/v1/auth/me').expect(200)).body.phone_number).toBe(phone);
    expect((await stored()).keys).toHaveLength(1);
    await stop();
  });

  it('stops at boot, saying why, with another key or with none', async () => {
    await expect(boot({ AUTH_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64') })).rejects.toThrow(
      /encrypted with key [0-9a-f]{16}, not with the configured AUTH_KEY_ENCRYPTION_KEY/,
    );
    await expect(boot()).rejects.toThrow(/encrypted \(key [0-9a-f]{16}\) but AUTH_KEY_ENCRYPTION_KEY is not set/);
    await expect(boot({ AUTH_KEY_ENCRYPTION_KEY: 'c2hvcnQ=' })).rejects.toThrow(
      /AUTH_KEY_ENCRYPTION_KEY: must be 32 random bytes in base64/,
    );
    await expect(boot({ NODE_ENV: 'production', DEV_SMS_INBOX: '', AUTH_KEY_ENCRYPTION_KEY: '' })).rejects.toThrow(
      /AUTH_KEY_ENCRYPTION_KEY: required when NODE_ENV is production/,
    );
    // The right key still opens everything.
    const ok = await boot({ AUTH_KEY_ENCRYPTION_KEY: key });
    const guest = new ApiClient(ok.url);
    await guest.guest();
    await guest.get('/api/v1/auth/me').expect(200);
    await stop();
  });
});
