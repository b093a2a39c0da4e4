import { Inject, Injectable } from '@nestjs/common';
import { DomainError, SERVICE_CONFIG } from '@app/platform';
import { createHash } from 'node:crypto';
import type { AuthConfig } from '../../config';
import type { VerifiedProfile } from '../login.service';

type Jose = typeof import('jose');
/** jose is an ES module: loaded once, on first use. */
let joseModule: Promise<Jose> | undefined;
const loadJose = (): Promise<Jose> => (joseModule ??= import('jose'));

const GOOGLE_ISSUERS = ['https://accounts.google.com', 'accounts.google.com'];
const APPLE_ISSUER = 'https://appleid.apple.com';
const CLOCK_TOLERANCE_SECONDS = 60;

/**
 * Checks what Google, Apple and Firebase hand the browser: exchanges authorization codes at the
 * provider's token endpoint and verifies ID tokens against the provider's published keys,
 * issuer, audience and expiry. Every endpoint is configurable, so tests use local fakes.
 */
@Injectable()
export class ProviderLoginService {
  private readonly keySets = new Map<string, ReturnType<Jose['createRemoteJWKSet']>>();

  constructor(@Inject(SERVICE_CONFIG) private readonly config: AuthConfig) {}

  providers() {
    const c = this.config;
    return {
      google: c.GOOGLE_CLIENT_ID ? { client_id: c.GOOGLE_CLIENT_ID } : null,
      apple: c.APPLE_SERVICE_ID ? { client_id: c.APPLE_SERVICE_ID, redirect_uri: c.APPLE_REDIRECT_URI ?? '', scope: 'name email' } : null,
      firebase:
        c.FIREBASE_PROJECT_ID && c.FIREBASE_API_KEY
          ? {
              api_key: c.FIREBASE_API_KEY,
              auth_domain: c.FIREBASE_AUTH_DOMAIN ?? `${c.FIREBASE_PROJECT_ID}.firebaseapp.com`,
              project_id: c.FIREBASE_PROJECT_ID,
            }
          : null,
    };
  }

  async google(input: { code?: string | null; id_token?: string | null; redirect_uri?: string | null }): Promise<VerifiedProfile> {
    const { GOOGLE_CLIENT_ID: clientId, GOOGLE_CLIENT_SECRET: secret } = this.config;
    if (!clientId) throw DomainError.notFound('Google sign-in is not configured.');
    let idToken = input.id_token ?? null;
    if (input.code) {
      if (!secret) throw DomainError.notFound('Google sign-in is not configured.');
      const answer = await this.exchange('Google', this.config.GOOGLE_TOKEN_URL, {
        grant_type: 'authorization_code',
        code: input.code,
        client_id: clientId,
        client_secret: secret,
        redirect_uri: input.redirect_uri ?? 'postmessage',
      });
      idToken = answer.id_token ?? null;
    }
    if (!idToken) throw DomainError.badRequest('Google sign-in needs an authorization code.');
    const claims = await this.verify('Google', idToken, this.config.GOOGLE_JWKS_URL, {
      issuer: GOOGLE_ISSUERS,
      audience: clientId,
      algorithms: ['RS256'],
    });
    return {
      provider: 'google',
      subject: claims.sub,
      email: claims.email_verified === true && typeof claims.email === 'string' ? claims.email : null,
      name: typeof claims.name === 'string' ? claims.name : null,
    };
  }

  async apple(input: {
    code?: string | null;
    id_token: string;
    nonce?: string | null;
    use_app_client_id?: boolean | null;
  }): Promise<VerifiedProfile> {
    const c = this.config;
    const audience = input.use_app_client_id ? c.APPLE_APP_CLIENT_ID : c.APPLE_SERVICE_ID;
    if (!audience) throw DomainError.notFound('Sign in with Apple is not configured.');
    const claims = await this.verify('Apple', input.id_token, c.APPLE_JWKS_URL, {
      issuer: APPLE_ISSUER,
      audience,
      algorithms: ['RS256', 'ES256'],
    });
    const nonce = typeof claims.nonce === 'string' ? claims.nonce : null;
    if (input.nonce || nonce) {
      const hashed = input.nonce ? createHash('sha256').update(input.nonce).digest('hex') : null;
      if (!input.nonce || (nonce !== input.nonce && nonce !== hashed))
        throw DomainError.unauthorized('Apple sign-in failed: the nonce does not match.');
    }
    if (input.code) {
      if (!c.APPLE_TEAM_ID || !c.APPLE_KEY_ID || !c.APPLE_PRIVATE_KEY) throw DomainError.notFound('Sign in with Apple is not configured.');
      const answer = await this.exchange('Apple', c.APPLE_TOKEN_URL, {
        grant_type: 'authorization_code',
        code: input.code,
        client_id: audience,
        client_secret: await this.appleClientSecret(audience),
        ...(c.APPLE_REDIRECT_URI && !input.use_app_client_id ? { redirect_uri: c.APPLE_REDIRECT_URI } : {}),
      });
      if (answer.id_token) {
        const exchanged = await this.verify('Apple', answer.id_token, c.APPLE_JWKS_URL, {
          issuer: APPLE_ISSUER,
          audience,
          algorithms: ['RS256', 'ES256'],
        });
        if (exchanged.sub !== claims.sub) throw DomainError.unauthorized('Apple sign-in failed: the code belongs to someone else.');
      }
    }
    return { provider: 'apple', subject: claims.sub, email: typeof claims.email === 'string' ? claims.email : null };
  }

  async firebase(input: { id_token: string }): Promise<VerifiedProfile> {
    const project = this.config.FIREBASE_PROJECT_ID;
    if (!project) throw DomainError.notFound('Firebase sign-in is not configured.');
    const claims = await this.verify('Firebase', input.id_token, this.config.FIREBASE_JWKS_URL, {
      issuer: `https://securetoken.google.com/${project}`,
      audience: project,
      algorithms: ['RS256'],
    });
    const authTime = typeof claims.auth_time === 'number' ? claims.auth_time : NaN;
    if (!(authTime <= Date.now() / 1000 + CLOCK_TOLERANCE_SECONDS))
      throw DomainError.unauthorized('Firebase sign-in failed: the token has no valid auth_time.');
    return {
      provider: 'firebase',
      subject: claims.sub,
      email: typeof claims.email === 'string' ? claims.email : null,
      name: typeof claims.name === 'string' ? claims.name : null,
      phoneNumber: typeof claims.phone_number === 'string' ? claims.phone_number : null,
    };
  }

  private async verify(
    provider: string,
    token: string,
    jwksUrl: string,
    options: { issuer: string | string[]; audience: string; algorithms: string[] },
  ) {
    const jose = await loadJose();
    let keys = this.keySets.get(jwksUrl);
    if (!keys) {
      keys = jose.createRemoteJWKSet(new URL(jwksUrl), { timeoutDuration: 5_000, cooldownDuration: 30_000 });
      this.keySets.set(jwksUrl, keys);
    }
    try {
      const { payload } = await jose.jwtVerify(token, keys, {
        ...options,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      return payload as import('jose').JWTPayload & { sub: string } & Record<string, unknown>;
    } catch (error) {
      // fetch's "fetch failed" is a TypeError of the realm fetch lives in (not Jest's sandbox, say): matched by name.
      if (
        error instanceof jose.errors.JWKSTimeout ||
        (error as { code?: string }).code === 'ERR_JOSE_GENERIC' ||
        (error as { name?: unknown }).name === 'TypeError'
      ) {
        throw new DomainError('unavailable', `${provider} sign-in is unavailable right now. Try again shortly.`, 502);
      }
      throw DomainError.unauthorized(`${provider} sign-in failed: ${describe(error)}.`);
    }
  }

  private async exchange(provider: string, url: string, form: Record<string, string>): Promise<{ id_token?: string }> {
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams(form),
        signal: AbortSignal.timeout(10_000),
      });
    } catch {
      throw new DomainError('unavailable', `${provider} sign-in is unavailable right now. Try again shortly.`, 502);
    }
    if (response.status >= 500)
      throw new DomainError('unavailable', `${provider} sign-in is unavailable right now. Try again shortly.`, 502);
    if (!response.ok) throw DomainError.unauthorized(`${provider} refused the sign-in code. Please sign in again.`);
    return (await response.json().catch(() => ({}))) as { id_token?: string };
  }

  /** The ES256 client secret Apple asks for: a short-lived JWT signed with the team's key. */
  private async appleClientSecret(clientId: string): Promise<string> {
    const jose = await loadJose();
    const c = this.config;
    const key = await jose.importPKCS8(c.APPLE_PRIVATE_KEY!.replace(/\\n/g, '\n'), 'ES256');
    return new jose.SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: c.APPLE_KEY_ID! })
      .setIssuer(c.APPLE_TEAM_ID!)
      .setSubject(clientId)
      .setAudience(APPLE_ISSUER)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(key);
  }
}

function describe(error: unknown): string {
  const code = (error as { code?: string }).code;
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return 'the token has expired';
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      return `the token's ${(error as { claim?: string }).claim ?? 'claims'} is not right`;
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
    case 'ERR_JWKS_NO_MATCHING_KEY':
      return 'the token is not signed by the provider';
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return 'the token uses an algorithm that is not accepted';
    default:
      return 'the token is not valid';
  }
}
