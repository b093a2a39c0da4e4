import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const IV_BYTES = 12;
const PREFIX = 'sealed:A256GCM:';

/**
 * Secrets of users' MCP servers (access tokens) sealed at rest: AES-256-GCM under
 * TOOLS_ENCRYPTION_KEY, with the server's id as additional data (a sealed token copied to another
 * row does not open). Never logged, never exported in clear.
 */
export class TokenSeal {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('The tools encryption key must be 32 bytes');
  }

  seal(plain: string, rowId: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(rowId));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${PREFIX}${[iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.')}`;
  }

  open(sealed: string, rowId: string): string {
    if (!sealed.startsWith(PREFIX)) throw new Error('Not a sealed value');
    const [iv, tag, body] = sealed
      .slice(PREFIX.length)
      .split('.')
      .map((part) => Buffer.from(part, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAAD(Buffer.from(rowId));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  }
}

/** 32 bytes in base64, as `openssl rand -base64 32` writes them. */
export function keyFromBase64(value: string): Buffer {
  const key = Buffer.from(value.trim(), 'base64');
  if (key.length !== 32) throw new Error('TOOLS_ENCRYPTION_KEY must be 32 random bytes in base64 (openssl rand -base64 32)');
  return key;
}

/**
 * The key: TOOLS_ENCRYPTION_KEY, else (outside production only) one made once and kept beside the
 * embedded database (DATA_DIR/tools-encryption.key, mode 600); in production without it, null
 * (users' servers with a token cannot be added: the operator is told so).
 */
export function toolsKey(config: { TOOLS_ENCRYPTION_KEY?: string }, runtime: { NODE_ENV: string; DATA_DIR: string }): Buffer | null {
  if (config.TOOLS_ENCRYPTION_KEY) return keyFromBase64(config.TOOLS_ENCRYPTION_KEY);
  if (runtime.NODE_ENV === 'production') return null;
  const file = join(runtime.DATA_DIR, 'tools-encryption.key');
  if (!existsSync(file)) {
    mkdirSync(runtime.DATA_DIR, { recursive: true });
    try {
      writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process made it first: read theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  chmodSync(file, 0o600);
  return keyFromBase64(readFileSync(file, 'utf8'));
}

/** Names a key without revealing it (for the logs). */
export const keyId = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 16);
