import { ConfigError } from '@app/platform';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  KEY_FILE_NAME,
  KeyEncryptionKeySchema,
  KeyEnvelope,
  KeyEnvelopeError,
  keyEnvelopeProvider,
  resolveKeyEncryptionKey,
} from './key-envelope';

const jwk = { kty: 'EC', crv: 'P-256', x: 'x-coordinate', y: 'y-coordinate', d: 'the-private-scalar' };
const key = () => randomBytes(32);

describe('KeyEnvelope', () => {
  it('seals a private JWK with AES-256-GCM and opens it again; the stored form holds none of it', () => {
    const envelope = new KeyEnvelope(key());
    const sealed = envelope.sealJson(jwk, 'auth.signing_key:k1');
    expect(sealed).toEqual({
      sealed: 'A256GCM',
      kek: envelope.keyId,
      iv: expect.any(String),
      tag: expect.any(String),
      ct: expect.any(String),
    });
    // None of the key's values or field names (the ciphertext is base64url: a short word like "EC"
    // turns up in it by chance, so only the longer values are looked for).
    expect(JSON.stringify(sealed)).not.toMatch(/private-scalar|coordinate|P-256|"kty"|"crv"|"d":/);
    expect(envelope.openJson(sealed, 'auth.signing_key:k1')).toEqual(jwk);
    // A fresh IV each time: the same key sealed twice looks different.
    expect(envelope.sealJson(jwk, 'auth.signing_key:k1')).not.toEqual(sealed);
  });

  it('seals a text secret the same way', () => {
    const envelope = new KeyEnvelope(key());
    const sealed = envelope.sealText('pepper-value', 'auth.auth_secret:phone-code-pepper');
    expect(sealed).toMatch(new RegExp(`^sealed:A256GCM:${envelope.keyId}:`));
    expect(sealed).not.toContain('pepper-value');
    expect(envelope.openText(sealed, 'auth.auth_secret:phone-code-pepper')).toBe('pepper-value');
  });

  it('reads what was stored before encryption as it is', () => {
    const envelope = new KeyEnvelope(key());
    expect(envelope.openJson(jwk, 'auth.signing_key:k1')).toBe(jwk);
    expect(envelope.openText('cGVwcGVy', 'auth.auth_secret:p')).toBe('cGVwcGVy');
  });

  it('without a key stores plaintext, and refuses to open what a key sealed', () => {
    const plain = new KeyEnvelope(null);
    expect(plain.encrypting).toBe(false);
    expect(plain.sealJson(jwk, 'c')).toBe(jwk);
    expect(plain.sealText('s', 'c')).toBe('s');
    const sealed = new KeyEnvelope(key()).sealJson(jwk, 'c');
    expect(() => plain.openJson(sealed, 'c')).toThrow(/encrypted .* but AUTH_KEY_ENCRYPTION_KEY is not set/);
  });

  it('refuses a value sealed with another key, naming both keys', () => {
    const one = new KeyEnvelope(key());
    const other = new KeyEnvelope(key());
    const sealed = one.sealJson(jwk, 'auth.signing_key:k1');
    expect(() => other.openJson(sealed, 'auth.signing_key:k1')).toThrow(KeyEnvelopeError);
    expect(() => other.openJson(sealed, 'auth.signing_key:k1')).toThrow(new RegExp(`key ${one.keyId}.*\\(${other.keyId}\\)`));
  });

  it('refuses a sealed value moved to another row, altered, or cut', () => {
    const envelope = new KeyEnvelope(key());
    const sealed = envelope.sealJson(jwk, 'auth.signing_key:k1') as { ct: string; tag: string; iv: string };
    expect(() => envelope.openJson(sealed as never, 'auth.signing_key:k2')).toThrow(/does not open/);
    const flipped = Buffer.from(sealed.ct, 'base64url');
    flipped[0] ^= 1;
    expect(() => envelope.openJson({ ...sealed, ct: flipped.toString('base64url') } as never, 'auth.signing_key:k1')).toThrow(
      /does not open/,
    );
    expect(() => envelope.openJson({ ...sealed, tag: sealed.tag.slice(0, 8) } as never, 'auth.signing_key:k1')).toThrow(/malformed/);
    const text = envelope.sealText('s', 'c');
    expect(() => envelope.openText(text.split(':').slice(0, 4).join(':'), 'c')).toThrow(/malformed/);
    expect(() => envelope.openText(text, 'other')).toThrow(/does not open/);
  });

  it('wants exactly 32 bytes', () => {
    expect(() => new KeyEnvelope(randomBytes(16))).toThrow(/32 bytes/);
    expect(KeyEncryptionKeySchema.safeParse(randomBytes(32).toString('base64')).success).toBe(true);
    expect(KeyEncryptionKeySchema.safeParse(randomBytes(16).toString('base64')).success).toBe(false);
    expect(KeyEncryptionKeySchema.safeParse('not base64 at all!').success).toBe(false);
  });
});

describe('resolveKeyEncryptionKey', () => {
  const lines: string[] = [];
  const logger = { log: (m: unknown) => void lines.push(String(m)), warn: (m: unknown) => void lines.push(`WARN ${String(m)}`) };
  let dataDir: string;
  beforeEach(() => {
    lines.length = 0;
    dataDir = mkdtempSync(join(tmpdir(), 'auth-kek-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('takes AUTH_KEY_ENCRYPTION_KEY when set, in any mode', () => {
    const value = randomBytes(32);
    const resolved = resolveKeyEncryptionKey(
      { AUTH_KEY_ENCRYPTION_KEY: value.toString('base64') },
      { NODE_ENV: 'production', DATABASE_URL: 'postgres://db', DATA_DIR: dataDir },
      logger,
    );
    expect(resolved).toEqual(value);
  });

  it('is required in production', () => {
    expect(() => resolveKeyEncryptionKey({}, { NODE_ENV: 'production', DATABASE_URL: 'postgres://db', DATA_DIR: dataDir }, logger)).toThrow(
      ConfigError,
    );
    expect(() => resolveKeyEncryptionKey({}, { NODE_ENV: 'production', DATABASE_URL: undefined, DATA_DIR: dataDir }, logger)).toThrow(
      /AUTH_KEY_ENCRYPTION_KEY: required when NODE_ENV is production/,
    );
  });

  it('with the embedded database, makes a key once in DATA_DIR (0600) and keeps using it', () => {
    const env = { NODE_ENV: 'development' as const, DATABASE_URL: undefined, DATA_DIR: join(dataDir, 'nested') };
    const first = resolveKeyEncryptionKey({}, env, logger);
    const file = join(env.DATA_DIR, KEY_FILE_NAME);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')).toEqual(first);
    expect(resolveKeyEncryptionKey({}, env, logger)).toEqual(first);
    expect(lines.filter((l) => l.includes('Made the key'))).toHaveLength(1);
    // Loosened by hand: tightened again.
    chmodSync(file, 0o644);
    resolveKeyEncryptionKey({}, env, logger);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('refuses a key file that holds no key', () => {
    writeFileSync(join(dataDir, KEY_FILE_NAME), 'garbage\n', { mode: 0o600 });
    expect(() => resolveKeyEncryptionKey({}, { NODE_ENV: 'development', DATABASE_URL: undefined, DATA_DIR: dataDir }, logger)).toThrow(
      /must be 32 random bytes/,
    );
  });

  it('with a shared database outside production keeps plaintext, and says so', () => {
    expect(resolveKeyEncryptionKey({}, { NODE_ENV: 'test', DATABASE_URL: 'postgres://db', DATA_DIR: dataDir }, logger)).toBeNull();
    expect(lines).toEqual([expect.stringMatching(/^WARN AUTH_KEY_ENCRYPTION_KEY is not set: .* stored unencrypted/)]);
  });
});

describe('keyEnvelopeProvider', () => {
  it('keeps a configuration problem for the boot check instead of throwing while Nest builds providers', () => {
    const make = keyEnvelopeProvider as unknown as { useFactory: (...args: unknown[]) => KeyEnvelope };
    const logger = { log: () => undefined, warn: () => undefined };
    const envelope = make.useFactory({}, { NODE_ENV: 'production', DATABASE_URL: 'postgres://db', DATA_DIR: '/nowhere' }, logger);
    expect(() => envelope.check()).toThrow(/AUTH_KEY_ENCRYPTION_KEY: required when NODE_ENV is production/);
    expect(() => envelope.sealText('x', 'c')).toThrow(ConfigError);
    expect(() =>
      make.useFactory({}, { NODE_ENV: 'test', DATABASE_URL: 'postgres://db', DATA_DIR: '/nowhere' }, logger).check(),
    ).not.toThrow();
  });
});
