import { Inject, Injectable } from '@nestjs/common';
import { systemCaller } from '@app/contracts';
import { AUTH_RPC, revokedSessionKey } from '@app/contracts/auth';
import { KEY_VALUE_STORE, RpcClient, type KeyValueStore } from '@app/platform';

type Jose = typeof import('jose');

/** jose is an ES module: loaded once, on first use (not per request). */
let joseModule: Promise<Jose> | undefined;
const loadJose = (): Promise<Jose> => (joseModule ??= import('jose'));

/** Who a valid access token says is calling. */
export interface Authenticated {
  user_id: string;
  session_id: string;
  is_anon: boolean;
}

export class InvalidTokenError extends Error {}

const KEY_REFRESH_MIN_INTERVAL_MS = 10_000;

/**
 * Checks access tokens without calling the auth service per request: the public keys are fetched
 * once (again when a token names an unknown key), the signature, algorithm, issuer, audience and
 * expiry are checked here, and an ended session is found in the shared cache.
 */
@Injectable()
export class TokenVerifier {
  private keys?: Promise<{ jwks: ReturnType<Jose['createLocalJWKSet']>; issuer: string; audience: string; algorithms: string[] }>;
  private lastRefresh = 0;

  constructor(
    private readonly rpc: RpcClient,
    @Inject(KEY_VALUE_STORE) private readonly kv: KeyValueStore,
  ) {}

  async verify(token: string): Promise<Authenticated> {
    const jose = await loadJose();
    let payload: import('jose').JWTPayload;
    try {
      payload = await this.check(jose, token);
    } catch (error) {
      if (!(error instanceof jose.errors.JWKSNoMatchingKey) || Date.now() - this.lastRefresh < KEY_REFRESH_MIN_INTERVAL_MS) {
        throw new InvalidTokenError(error instanceof Error ? error.message : String(error));
      }
      this.keys = undefined; // a new signing key: fetch the set again, once
      try {
        payload = await this.check(jose, token);
      } catch (again) {
        throw new InvalidTokenError(again instanceof Error ? again.message : String(again));
      }
    }
    const { sub, sid, anon } = payload as { sub?: unknown; sid?: unknown; anon?: unknown };
    if (typeof sub !== 'string' || typeof sid !== 'string' || typeof anon !== 'boolean') throw new InvalidTokenError('missing claims');
    if (await this.kv.get(revokedSessionKey(sid))) throw new InvalidTokenError('session ended');
    return { user_id: sub, session_id: sid, is_anon: anon };
  }

  private async check(jose: Jose, token: string) {
    const { jwks, issuer, audience, algorithms } = await this.keySet(jose);
    const { payload } = await jose.jwtVerify(token, jwks, { issuer, audience, algorithms, requiredClaims: ['sub', 'exp', 'iat'] });
    return payload;
  }

  private keySet(jose: Jose) {
    this.keys ??= (async () => {
      this.lastRefresh = Date.now();
      const answer = await this.rpc.call(AUTH_RPC.keys, {}, systemCaller('token-keys'));
      return { jwks: jose.createLocalJWKSet({ keys: answer.keys as import('jose').JWK[] }), issuer: answer.issuer, audience: answer.audience, algorithms: answer.algorithms };
    })().catch((error: unknown) => {
      this.keys = undefined;
      throw error;
    });
    return this.keys;
  }
}
