import type { Provider } from '@nestjs/common';
import { AppLogger, ConfigError, RUNTIME_ENV, SERVICE_CONFIG, type RuntimeEnv } from '@app/platform';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';

const ALGORITHM = 'A256GCM';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const TEXT_PREFIX = `sealed:${ALGORITHM}:`;
/** Where the embedded mode keeps the key it made, beside its database (DATA_DIR). */
export const KEY_FILE_NAME = 'auth-key-encryption.key';

/** 32 random bytes, base64 (`openssl rand -base64 32`). */
export const KeyEncryptionKeySchema = z
  .string()
  .trim()
  .refine((value) => /^[A-Za-z0-9+/_-]+={0,2}$/.test(value) && Buffer.from(value, 'base64').length === 32, {
    message: 'must be 32 random bytes in base64 (openssl rand -base64 32)',
  });

/** A private value as stored in a jsonb column once sealed. */
export interface SealedJson {
  sealed: typeof ALGORITHM;
  /** Which key sealed it (a hash of the key, never the key). */
  kek: string;
  iv: string;
  tag: string;
  ct: string;
}

/** Something sealed with a key other than the configured one, or with none configured. */
export class KeyEnvelopeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyEnvelopeError';
  }
}

const b64url = (bytes: Buffer) => bytes.toString('base64url');

/**
 * Encryption at rest of the auth service's private material (the signing keys' private JWKs, the
 * phone-code pepper): AES-256-GCM under a key from the environment, with the row it belongs to as
 * additional data (a sealed value moved to another row does not open). Without a key it stores
 * plaintext (allowed outside production only); either way it reads both, so rows written before
 * encryption keep working and are sealed again at boot.
 */
export class KeyEnvelope {
  /** Identifies the key (first 16 hex of its SHA-256): tells which key a row needs, reveals nothing of it. */
  readonly keyId: string | null;

  /**
   * `problem`: why no usable key could be had (checked at boot by `check`). Kept rather than thrown,
   * because an error thrown while Nest builds its providers ends the whole process.
   */
  constructor(
    private readonly key: Buffer | null,
    private readonly problem: Error | null = null,
  ) {
    if (key && key.length !== 32) throw new Error('The key encryption key must be 32 bytes');
    this.keyId = key ? createHash('sha256').update(key).digest('hex').slice(0, 16) : null;
  }

  /** Throws the configuration problem found when the key was looked for, if any. */
  check(): void {
    if (this.problem) throw this.problem;
  }

  get encrypting(): boolean {
    return this.key !== null;
  }

  static isSealedJson(value: unknown): value is SealedJson {
    return typeof value === 'object' && value !== null && (value as { sealed?: unknown }).sealed === ALGORITHM;
  }

  static isSealedText(value: string): boolean {
    return value.startsWith(TEXT_PREFIX);
  }

  /** A JSON object as it is to be stored: sealed when a key is configured. */
  sealJson(value: Record<string, unknown>, context: string): Record<string, unknown> {
    this.check();
    if (!this.key) return value;
    const { iv, tag, ct } = this.encrypt(Buffer.from(JSON.stringify(value), 'utf8'), context);
    const sealed: SealedJson = { sealed: ALGORITHM, kek: this.keyId!, iv: b64url(iv), tag: b64url(tag), ct: b64url(ct) };
    return { ...sealed };
  }

  /** The JSON object a stored value holds, sealed or not. */
  openJson(stored: Record<string, unknown>, context: string): Record<string, unknown> {
    this.check();
    if (!KeyEnvelope.isSealedJson(stored)) return stored;
    const plain = this.decrypt(
      stored.kek,
      Buffer.from(stored.iv, 'base64url'),
      Buffer.from(stored.tag, 'base64url'),
      Buffer.from(stored.ct, 'base64url'),
      context,
    );
    return JSON.parse(plain.toString('utf8')) as Record<string, unknown>;
  }

  /** A text as it is to be stored: `sealed:A256GCM:<kek>:<iv>:<tag>:<ct>` when a key is configured. */
  sealText(value: string, context: string): string {
    this.check();
    if (!this.key) return value;
    const { iv, tag, ct } = this.encrypt(Buffer.from(value, 'utf8'), context);
    return `${TEXT_PREFIX}${this.keyId}:${b64url(iv)}:${b64url(tag)}:${b64url(ct)}`;
  }

  openText(stored: string, context: string): string {
    this.check();
    if (!KeyEnvelope.isSealedText(stored)) return stored;
    const parts = stored.slice(TEXT_PREFIX.length).split(':');
    if (parts.length !== 4) throw new KeyEnvelopeError(`The sealed value of ${context} is malformed`);
    const [kek, iv, tag, ct] = parts;
    return this.decrypt(kek, Buffer.from(iv, 'base64url'), Buffer.from(tag, 'base64url'), Buffer.from(ct, 'base64url'), context).toString(
      'utf8',
    );
  }

  private encrypt(plain: Buffer, context: string): { iv: Buffer; tag: Buffer; ct: Buffer } {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key!, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ct = Buffer.concat([cipher.update(plain), cipher.final()]);
    return { iv, tag: cipher.getAuthTag(), ct };
  }

  private decrypt(kek: string, iv: Buffer, tag: Buffer, ct: Buffer, context: string): Buffer {
    if (!this.key) {
      throw new KeyEnvelopeError(
        `${context} is encrypted (key ${kek}) but AUTH_KEY_ENCRYPTION_KEY is not set: set the key it was sealed with`,
      );
    }
    if (kek !== this.keyId) {
      throw new KeyEnvelopeError(
        `${context} was encrypted with key ${kek}, not with the configured AUTH_KEY_ENCRYPTION_KEY (${this.keyId}): set the key it was sealed with`,
      );
    }
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new KeyEnvelopeError(`The sealed value of ${context} is malformed`);
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(ct), decipher.final()]);
    } catch {
      throw new KeyEnvelopeError(
        `The sealed value of ${context} does not open with the configured key (altered, or moved from another row)`,
      );
    }
  }
}

/**
 * The key, by precedence: AUTH_KEY_ENCRYPTION_KEY; none in production (a configuration error);
 * with the embedded database (no DATABASE_URL), a key made once and kept in DATA_DIR (0600) beside
 * the database files, so that a dump or a copy of the database alone does not hold usable keys;
 * otherwise (a shared database outside production) none, said once in the log, because replicas
 * that each made their own key file would not read each other's rows.
 */
export function resolveKeyEncryptionKey(
  config: { AUTH_KEY_ENCRYPTION_KEY?: string },
  env: Pick<RuntimeEnv, 'NODE_ENV' | 'DATABASE_URL' | 'DATA_DIR'>,
  logger: Pick<AppLogger, 'log' | 'warn'>,
): Buffer | null {
  if (config.AUTH_KEY_ENCRYPTION_KEY) return Buffer.from(config.AUTH_KEY_ENCRYPTION_KEY.trim(), 'base64');
  if (env.NODE_ENV === 'production') {
    throw new ConfigError('the auth service', [
      'AUTH_KEY_ENCRYPTION_KEY: required when NODE_ENV is production (32 random bytes in base64: openssl rand -base64 32); it encrypts the signing keys at rest',
    ]);
  }
  if (!env.DATABASE_URL) return embeddedKey(join(env.DATA_DIR, KEY_FILE_NAME), logger);
  logger.warn(
    'AUTH_KEY_ENCRYPTION_KEY is not set: the signing keys and the code pepper are stored unencrypted (allowed outside production only)',
    'KeyEnvelope',
  );
  return null;
}

function embeddedKey(path: string, logger: Pick<AppLogger, 'log' | 'warn'>): Buffer {
  try {
    mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
    writeFileSync(path, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    logger.log(`Made the key that encrypts the signing keys at rest: ${path} (keep it with the data directory)`, 'KeyEnvelope');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  const text = readFileSync(path, 'utf8').trim();
  const parsed = KeyEncryptionKeySchema.safeParse(text);
  if (!parsed.success) throw new ConfigError('the auth service', [`${path}: ${parsed.error.issues[0]?.message ?? 'not a key'}`]);
  return Buffer.from(text, 'base64');
}

/**
 * The envelope the auth service's store seals its private material with. A missing or unreadable
 * key is not thrown here (Nest would end the process): TokenService checks it at boot.
 */
export const keyEnvelopeProvider: Provider = {
  provide: KeyEnvelope,
  inject: [SERVICE_CONFIG, RUNTIME_ENV, AppLogger],
  useFactory: (config: { AUTH_KEY_ENCRYPTION_KEY?: string }, env: RuntimeEnv, logger: AppLogger) => {
    try {
      return new KeyEnvelope(resolveKeyEncryptionKey(config, env, logger));
    } catch (error) {
      return new KeyEnvelope(null, error instanceof Error ? error : new Error(String(error)));
    }
  },
};
