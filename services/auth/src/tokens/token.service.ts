import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { AppLogger, SERVICE_CONFIG } from '@app/platform';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { AuthConfig } from '../config';
import { AuthUnitOfWork, type AuthData } from '../store/auth-unit-of-work';
import { KeyEnvelope } from './key-envelope';
import { sealStoredKeyMaterial } from './signing-keys.repository';

export const TOKEN_ALGORITHM = 'ES256';

type Jose = typeof import('jose');
/** jose is an ES module: loaded once, on first use. */
let joseModule: Promise<Jose> | undefined;
const loadJose = (): Promise<Jose> => (joseModule ??= import('jose'));

/** Issues access tokens (ES256 JWTs) and publishes the public keys to check them with. */
@Injectable()
export class TokenService implements OnApplicationBootstrap {
  private signer?: Promise<{ kid: string; key: import('node:crypto').webcrypto.CryptoKey }>;

  constructor(
    @Inject(AuthUnitOfWork) private readonly store: AuthData,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<AuthConfig, 'AUTH_TOKEN_ISSUER' | 'AUTH_TOKEN_AUDIENCE'>,
    private readonly logger: AppLogger,
    private readonly envelope: KeyEnvelope,
    private readonly dataSource: DataSource,
  ) {}

  /**
   * At boot: the key encryption key is there when it must be, every stored private key and secret
   * opens with it (else the service does not start, rather than failing every sign-in), and what
   * was stored in plaintext before is sealed now.
   */
  async onApplicationBootstrap(): Promise<void> {
    const sealed = await sealStoredKeyMaterial(this.dataSource, this.envelope);
    if (sealed > 0) this.logger.log(`Encrypted ${sealed} signing key(s) and secret(s) stored before encryption at rest`, 'KeyEnvelope');
  }

  async issue(claims: { userId: string; sessionId: string; isAnon: boolean; expiresAt: Date }): Promise<string> {
    const jose = await loadJose();
    const { kid, key } = await this.activeSigner();
    return new jose.SignJWT({ sid: claims.sessionId, anon: claims.isAnon })
      .setProtectedHeader({ alg: TOKEN_ALGORITHM, kid, typ: 'JWT' })
      .setIssuer(this.config.AUTH_TOKEN_ISSUER)
      .setAudience(this.config.AUTH_TOKEN_AUDIENCE)
      .setSubject(claims.userId)
      .setIssuedAt()
      .setExpirationTime(Math.floor(claims.expiresAt.getTime() / 1000))
      .setJti(randomUUID())
      .sign(key);
  }

  async publicKeys() {
    await this.activeSigner();
    const keys = await this.store.keys.all();
    return {
      keys: keys.map((k) => ({ ...(k.publicJwk as { kty: string }), kid: k.kid, alg: TOKEN_ALGORITHM, use: 'sig' })),
      issuer: this.config.AUTH_TOKEN_ISSUER,
      audience: this.config.AUTH_TOKEN_AUDIENCE,
      algorithms: [TOKEN_ALGORITHM],
    };
  }

  private activeSigner(): Promise<{ kid: string; key: import('node:crypto').webcrypto.CryptoKey }> {
    this.signer ??= (async () => {
      const jose = await loadJose();
      const row = await this.store.keys.activeOrCreate(async () => {
        const { privateKey, publicKey } = await jose.generateKeyPair(TOKEN_ALGORITHM, { extractable: true });
        return {
          kid: randomUUID(),
          privateJwk: (await jose.exportJWK(privateKey)) as Record<string, unknown>,
          publicJwk: (await jose.exportJWK(publicKey)) as Record<string, unknown>,
        };
      });
      return { kid: row.kid, key: (await jose.importJWK(row.privateJwk, TOKEN_ALGORITHM)) as import('node:crypto').webcrypto.CryptoKey };
    })().catch((error: unknown) => {
      this.signer = undefined;
      throw error;
    });
    return this.signer;
  }
}
