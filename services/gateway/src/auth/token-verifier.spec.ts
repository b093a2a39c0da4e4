import { activeSessionState, AUTH_RPC, SESSION_STATE, sessionStateKey } from '@app/contracts/auth';
import { MemoryStore, RpcCallError, type RpcClient } from '@app/platform';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { InvalidTokenError, TokenVerifier } from './token-verifier';

const USER = '00000000-0000-4000-8000-0000000000ad';
const SESSION = '00000000-0000-4000-8000-0000000000a1';
const OTHER_USER = '00000000-0000-4000-8000-0000000000bb';
const CACHE_SECONDS = 30;

/** The auth service as the gateway sees it: its public keys, and its answer about sessions. */
class FakeAuth implements Pick<RpcClient, 'call'> {
  statusAsked = 0;
  active = true;
  failure: Error | null = null;
  /** Runs while the question is in flight (to race an ended mark against the answer). */
  duringQuestion: () => Promise<void> = async () => undefined;

  constructor(private readonly jwk: Record<string, unknown>) {}

  call: RpcClient['call'] = async (contract, payload) => {
    if (contract.subject === AUTH_RPC.keys.subject) {
      return {
        keys: [{ ...this.jwk, kid: 'k1', alg: 'ES256', use: 'sig' }],
        issuer: 'assistant',
        audience: 'assistant-api',
        algorithms: ['ES256'],
      } as never;
    }
    if (contract.subject === AUTH_RPC.sessionStatus.subject) {
      this.statusAsked += 1;
      await this.duringQuestion();
      if (this.failure) throw this.failure;
      // The database's answer: the session exists, lives and is this user's.
      return { active: this.active && (payload as { user_id: string }).user_id === USER } as never;
    }
    throw new Error(`unexpected call ${contract.subject}`);
  };
}

let kv: MemoryStore;
let auth: FakeAuth;
let verifier: TokenVerifier;
let token: (claims?: Record<string, unknown>, expiresInSeconds?: number) => Promise<string>;

beforeEach(async () => {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  kv = new MemoryStore();
  auth = new FakeAuth((await exportJWK(publicKey)) as Record<string, unknown>);
  verifier = new TokenVerifier(auth, kv, { SESSION_STATUS_CACHE_SECONDS: CACHE_SECONDS });
  token = (claims = {}, expiresInSeconds = 3600) =>
    new SignJWT({ sid: SESSION, anon: false, ...claims })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer('assistant')
      .setAudience('assistant-api')
      .setSubject(typeof claims.sub === 'string' ? claims.sub : USER)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds)
      .sign(privateKey);
});

afterEach(() => kv.close());

describe('TokenVerifier: whether the session still lives', () => {
  it('asks the auth service when the cache does not know, then trusts a short-lived "active"', async () => {
    const set = jest.spyOn(kv, 'setIfAbsent');
    await expect(verifier.verify(await token())).resolves.toEqual({ user_id: USER, session_id: SESSION, is_anon: false });
    await verifier.verify(await token());
    expect(auth.statusAsked).toBe(1);
    expect(set).toHaveBeenCalledWith(sessionStateKey(SESSION), activeSessionState(USER), CACHE_SECONDS);
  });

  it('never trusts "active" beyond the token\'s own expiry', async () => {
    const set = jest.spyOn(kv, 'setIfAbsent');
    await verifier.verify(await token({}, 10));
    expect(set.mock.calls[0][2]).toBeLessThanOrEqual(10);
  });

  it('refuses an ended session and remembers it until the token expires (the database said so)', async () => {
    auth.active = false;
    const set = jest.spyOn(kv, 'set');
    await expect(verifier.verify(await token({}, 600))).rejects.toBeInstanceOf(InvalidTokenError);
    await expect(verifier.verify(await token({}, 600))).rejects.toBeInstanceOf(InvalidTokenError);
    expect(auth.statusAsked).toBe(1);
    expect(set.mock.calls[0][0]).toBe(sessionStateKey(SESSION));
    expect(set.mock.calls[0][1]).toBe(SESSION_STATE.ended);
    expect(set.mock.calls[0][2]).toBeGreaterThan(590);
  });

  it('refuses a session the cache marks ended without asking, even if it was cached active before', async () => {
    await verifier.verify(await token());
    await kv.set(sessionStateKey(SESSION), SESSION_STATE.ended, 600); // logout, written by the auth service
    await expect(verifier.verify(await token())).rejects.toThrow('session ended');
    expect(auth.statusAsked).toBe(1);
  });

  it('lets an ended mark written while the question was in flight win over the answer', async () => {
    auth.duringQuestion = () => kv.set(sessionStateKey(SESSION), SESSION_STATE.ended, 600);
    await verifier.verify(await token()); // answered before the logout committed
    await expect(verifier.verify(await token())).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it("refuses a token naming another user with one's own live session id, while that session is cached active (issue 22.3)", async () => {
    await verifier.verify(await token()); // the session's owner: now cached as active
    await expect(verifier.verify(await token({ sub: OTHER_USER }))).rejects.toThrow('session ended');
    await expect(verifier.verify(await token())).resolves.toMatchObject({ user_id: USER }); // the owner is unaffected
  });

  it("refuses a token naming another user with one's own session id when the cache does not know it", async () => {
    await expect(verifier.verify(await token({ sub: OTHER_USER }))).rejects.toThrow('session ended');
    expect(auth.statusAsked).toBe(1);
  });

  it("does not let the owner's question answer for a borrowed session id asked at the same time", async () => {
    const [owner, borrowed] = await Promise.allSettled([verifier.verify(await token()), verifier.verify(await token({ sub: OTHER_USER }))]);
    expect(owner.status).toBe('fulfilled');
    expect(borrowed.status).toBe('rejected');
  });

  it('trusts no "active" mark without its user (one written before this change): it asks', async () => {
    await kv.set(sessionStateKey(SESSION), 'active', 30);
    await expect(verifier.verify(await token({ sub: OTHER_USER }))).rejects.toThrow('session ended');
    expect(auth.statusAsked).toBe(1);
  });

  it('asks once for a burst of requests of one session', async () => {
    const t = await token();
    await Promise.all(Array.from({ length: 20 }, () => verifier.verify(t)));
    expect(auth.statusAsked).toBe(1);
  });

  it('fails closed when the auth service cannot answer (the request fails, the token is not let through)', async () => {
    auth.failure = new RpcCallError({ status: 503, detail: 'busy', code: 'unavailable' }, AUTH_RPC.sessionStatus.subject);
    await expect(verifier.verify(await token())).rejects.toBe(auth.failure);
    expect(await kv.get(sessionStateKey(SESSION))).toBeNull();
  });

  it('asks the auth service when the cache itself fails', async () => {
    jest.spyOn(kv, 'get').mockRejectedValue(new Error('Redis is away'));
    jest.spyOn(kv, 'setIfAbsent').mockRejectedValue(new Error('Redis is away'));
    await expect(verifier.verify(await token())).resolves.toMatchObject({ session_id: SESSION });
    auth.active = false;
    await expect(verifier.verify(await token())).rejects.toBeInstanceOf(InvalidTokenError);
    expect(auth.statusAsked).toBe(2);
  });

  it('refuses malformed session claims without asking', async () => {
    await expect(verifier.verify(await token({ sid: "x' OR 1=1" }))).rejects.toThrow('malformed claims');
    expect(auth.statusAsked).toBe(0);
  });
});

describe('TokenVerifier: a token verified once', () => {
  it("skips the signature on the same token's next request, but never its expiry nor the session's state", async () => {
    // The keys are looked up for each signature checked.
    const keySet = jest.spyOn(verifier as unknown as { keySet: () => unknown }, 'keySet');
    const once = await token({}, 60);
    await verifier.verify(once);
    await verifier.verify(once);
    expect(keySet).toHaveBeenCalledTimes(1);
    await verifier.verify(await token({}, 61)); // another token is checked
    expect(keySet).toHaveBeenCalledTimes(2);
    // The session ends: the remembered token is refused all the same.
    await kv.set(sessionStateKey(SESSION), SESSION_STATE.ended, 600);
    await expect(verifier.verify(once)).rejects.toThrow('session ended');
  });

  it('refuses a remembered token once it has expired', async () => {
    const short = await token({}, 5);
    await verifier.verify(short);
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'setTimeout', 'setInterval', 'queueMicrotask'] });
    try {
      jest.setSystemTime(Date.now() + 6_000);
      await expect(verifier.verify(short)).rejects.toBeInstanceOf(InvalidTokenError);
    } finally {
      jest.useRealTimers();
    }
  });
});
