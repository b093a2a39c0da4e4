import { Inject, Injectable } from '@nestjs/common';
import { systemCaller } from '@app/contracts';
import { activeSessionState, AUTH_RPC, SESSION_STATE, sessionStateKey } from '@app/contracts/auth';
import { KEY_VALUE_STORE, RpcClient, type KeyValueStore } from '@app/platform';
import type { GatewayConfig } from '../config';
import { GATEWAY_CONFIG } from '../tokens';

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
/** Tokens whose signature and claims were checked, remembered at most (then forgotten all at once). */
const MAX_VERIFIED_TOKENS = 10_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Checks access tokens. The public keys are fetched once (again when a token names an unknown key);
 * the signature, algorithm, issuer, audience and expiry are checked here. Whether the session still
 * lives is the auth service's database to say: the shared cache answers first (an "ended" mark the
 * auth service writes when a session ends, or a short-lived "active" this gateway wrote), and when
 * it does not know (a restart, an eviction, a flushed Redis) the gateway asks the auth service and
 * caches the answer. A failed question fails the request (503/504), never lets the token through.
 */
@Injectable()
export class TokenVerifier {
  private keys?: Promise<{ jwks: ReturnType<Jose['createLocalJWKSet']>; issuer: string; audience: string; algorithms: string[] }>;
  private lastRefresh = 0;
  /** Questions in flight, one per session: a burst of requests asks once. */
  private readonly asking = new Map<string, Promise<boolean>>();
  /**
   * Tokens already verified against the current keys, with their payload: the same token's next
   * request skips the signature (an ECDSA verification, a noticeable share of a reply's start) but
   * not its expiry, checked each time, nor the session's liveness. Forgotten when the keys change.
   */
  private readonly verified = new Map<string, import('jose').JWTPayload>();

  constructor(
    @Inject(RpcClient) private readonly rpc: Pick<RpcClient, 'call'>,
    @Inject(KEY_VALUE_STORE) private readonly kv: KeyValueStore,
    @Inject(GATEWAY_CONFIG) private readonly config: Pick<GatewayConfig, 'SESSION_STATUS_CACHE_SECONDS'>,
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
    const { sub, sid, anon, exp } = payload as { sub?: unknown; sid?: unknown; anon?: unknown; exp?: unknown };
    if (typeof sub !== 'string' || typeof sid !== 'string' || typeof anon !== 'boolean' || typeof exp !== 'number')
      throw new InvalidTokenError('missing claims');
    if (!UUID.test(sub) || !UUID.test(sid)) throw new InvalidTokenError('malformed claims');
    if (!(await this.sessionLives(sub, sid, exp))) throw new InvalidTokenError('session ended');
    return { user_id: sub, session_id: sid, is_anon: anon };
  }

  private async sessionLives(userId: string, sessionId: string, exp: number): Promise<boolean> {
    // The cache is only a fast path: when it cannot answer, the auth service does.
    // The session must be `sub`'s: an "active" mark names its user, and one naming someone else
    // means this token borrowed a session id that is not its own.
    const cached = await this.kv.get(sessionStateKey(sessionId)).catch(() => null);
    if (cached === SESSION_STATE.ended) return false;
    if (cached === activeSessionState(userId)) return true;
    if (cached?.startsWith(activeSessionState(''))) return false;
    const asked = `${userId}:${sessionId}`; // a question answers only for the user it asked about
    let question = this.asking.get(asked);
    if (!question) {
      question = this.ask(userId, sessionId, exp).finally(() => this.asking.delete(asked));
      this.asking.set(asked, question);
    }
    return question;
  }

  private async ask(userId: string, sessionId: string, exp: number): Promise<boolean> {
    const { active } = await this.rpc.call(
      AUTH_RPC.sessionStatus,
      { session_id: sessionId, user_id: userId },
      systemCaller('session-status'),
    );
    const untilExpiry = Math.max(1, exp - Math.floor(Date.now() / 1000));
    const remembered = active
      ? // Only when absent: an "ended" mark written meanwhile by the auth service wins.
        this.kv.setIfAbsent(
          sessionStateKey(sessionId),
          activeSessionState(userId),
          Math.min(this.config.SESSION_STATUS_CACHE_SECONDS, untilExpiry),
        )
      : this.kv.set(sessionStateKey(sessionId), SESSION_STATE.ended, untilExpiry);
    await remembered.catch(() => undefined); // not remembered: asked again next time
    return active;
  }

  private async check(jose: Jose, token: string) {
    const known = this.verified.get(token);
    if (known && typeof known.exp === 'number' && known.exp > Date.now() / 1000) return known;
    const keys = this.keySet(jose);
    const { jwks, issuer, audience, algorithms } = await keys;
    const { payload } = await jose.jwtVerify(token, jwks, { issuer, audience, algorithms, requiredClaims: ['sub', 'exp', 'iat'] });
    if (this.keys === keys && payload.nbf === undefined) {
      if (this.verified.size >= MAX_VERIFIED_TOKENS) this.verified.clear();
      this.verified.set(token, payload);
    }
    return payload;
  }

  private keySet(jose: Jose) {
    if (!this.keys) this.verified.clear(); // verified against keys that may have changed
    this.keys ??= (async () => {
      this.lastRefresh = Date.now();
      const answer = await this.rpc.call(AUTH_RPC.keys, {}, systemCaller('token-keys'));
      return {
        jwks: jose.createLocalJWKSet({ keys: answer.keys as import('jose').JWK[] }),
        issuer: answer.issuer,
        audience: answer.audience,
        algorithms: answer.algorithms,
      };
    })().catch((error: unknown) => {
      this.keys = undefined;
      throw error;
    });
    return this.keys;
  }
}
