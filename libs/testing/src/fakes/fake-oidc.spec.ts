import { createRemoteJWKSet, importPKCS8, jwtVerify, SignJWT } from 'jose';
import { FakeOidc } from './fake-oidc';

async function form(url: string, fields: Record<string, string>) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

describe('FakeOidc', () => {
  describe('as Google', () => {
    const google = FakeOidc.google({ audience: 'client-1.apps.googleusercontent.com' });
    let jwks: ReturnType<typeof createRemoteJWKSet>;
    const verify = (token: string) =>
      jwtVerify(token, jwks, { issuer: 'https://accounts.google.com', audience: 'client-1.apps.googleusercontent.com' });

    beforeAll(async () => {
      await google.start();
      jwks = createRemoteJWKSet(new URL(google.jwksUrl));
    });
    afterAll(() => google.stop());
    beforeEach(() => google.reset());

    it('serves its keys where Google does, and its tokens verify with jose', async () => {
      expect(google.jwksUrl).toBe(`${google.url}/oauth2/v3/certs`);
      const token = await google.signIdToken({ sub: '1234', email: 'ann@example.com' });
      const { payload, protectedHeader } = await verify(token);
      expect(protectedHeader.alg).toBe('RS256');
      expect(payload).toMatchObject({ iss: 'https://accounts.google.com', sub: '1234', email: 'ann@example.com', email_verified: true });
      expect(payload.exp! - payload.iat!).toBe(3600);
      const es = await verify(await google.signIdToken({}, { alg: 'ES256' }));
      expect(es.protectedHeader.alg).toBe('ES256');
    });

    it.each([
      ['an unknown key', { unknownKey: true }, 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'],
      ['an unknown key and kid', { unknownKey: true, kid: 'gone' }, 'ERR_JWKS_NO_MATCHING_KEY'],
      ['alg none', { algNone: true }, 'ERR_JOSE_NOT_SUPPORTED'],
      ['an expired token', { expired: true }, 'ERR_JWT_EXPIRED'],
      ['another audience', { wrongAudience: true }, 'ERR_JWT_CLAIM_VALIDATION_FAILED'],
      ['a tampered payload', { tamper: true as const }, 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'],
    ])('makes tokens a verifier must refuse: %s', async (_name, options, code) => {
      await expect(verify(await google.signIdToken({}, options))).rejects.toMatchObject({ code });
    });

    it('exchanges a scripted code once, checking the redirect URI and the client', async () => {
      google.scriptCode(
        'code-1',
        { sub: 'g-42', email: 'bob@example.com', name: 'Bob' },
        { expectRedirectUri: 'http://app/cb', expectClientSecret: 's3cret' },
      );
      const fields = {
        grant_type: 'authorization_code',
        code: 'code-1',
        client_id: 'client-1.apps.googleusercontent.com',
        client_secret: 's3cret',
      };
      expect(await form(google.tokenUrl, { ...fields, redirect_uri: 'http://evil/cb' })).toMatchObject({
        status: 400,
        body: { error: 'invalid_grant' },
      });
      expect(await form(google.tokenUrl, { ...fields, client_secret: 'nope', redirect_uri: 'http://app/cb' })).toMatchObject({
        status: 400,
        body: { error: 'invalid_client' },
      });
      const ok = await form(google.tokenUrl, { ...fields, redirect_uri: 'http://app/cb' });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ token_type: 'Bearer', expires_in: 3599 });
      expect((await verify(ok.body.id_token)).payload).toMatchObject({
        sub: 'g-42',
        email: 'bob@example.com',
        aud: 'client-1.apps.googleusercontent.com',
      });
      // Used codes and unknown codes are refused.
      expect(await form(google.tokenUrl, { ...fields, redirect_uri: 'http://app/cb' })).toMatchObject({
        status: 400,
        body: { error: 'invalid_grant' },
      });
      expect(await form(google.tokenUrl, { ...fields, code: 'never-scripted' })).toMatchObject({
        status: 400,
        body: { error: 'invalid_grant' },
      });
      expect(google.tokenRequests()).toHaveLength(5);
      expect(google.tokenRequests()[2]).toMatchObject({
        status: 200,
        clientId: 'client-1.apps.googleusercontent.com',
        clientSecret: 's3cret',
        basicAuth: false,
      });

      const userinfo = await fetch(google.userinfoUrl, { headers: { authorization: `Bearer ${ok.body.access_token}` } });
      expect(await userinfo.json()).toEqual({ sub: 'g-42', email: 'bob@example.com', email_verified: true, name: 'Bob' });
      expect((await fetch(google.userinfoUrl, { headers: { authorization: 'Bearer forged' } })).status).toBe(401);
    });

    it('redirects an authorization request at once with the next scripted code and the state', async () => {
      google.scriptCode('code-a', { sub: 'a' });
      const query = new URLSearchParams({
        client_id: 'client-1',
        redirect_uri: 'http://app/cb?x=1',
        response_type: 'code',
        scope: 'openid email',
        state: 'st-1',
        nonce: 'n-1',
      });
      const first = await fetch(`${google.authorizeUrl}?${query}`, { redirect: 'manual' });
      expect(first.status).toBe(302);
      expect(first.headers.get('location')).toBe('http://app/cb?x=1&code=code-a&state=st-1');
      const none = await fetch(`${google.authorizeUrl}?${query}`, { redirect: 'manual' });
      expect(none.headers.get('location')).toBe('http://app/cb?x=1&error=access_denied&state=st-1');
      expect(google.authorizationRequests()[0]).toMatchObject({ client_id: 'client-1', scope: 'openid email' });
      // The nonce of the authorization request comes back in the ID token.
      const ok = await form(google.tokenUrl, {
        grant_type: 'authorization_code',
        code: 'code-a',
        client_id: 'client-1.apps.googleusercontent.com',
      });
      expect((await verify(ok.body.id_token)).payload.nonce).toBe('n-1');
    });
  });

  describe('as Apple', () => {
    const apple = FakeOidc.apple();
    beforeAll(() => apple.start());
    afterAll(() => apple.stop());

    it('records the client secret so a test can check it is the ES256 JWT Apple expects', async () => {
      const key = await FakeOidc.appleClientKey('KEY123');
      expect(key.privateKeyPem).toContain('BEGIN PRIVATE KEY');
      const now = Math.floor(Date.now() / 1000);
      const clientSecret = await new SignJWT({})
        .setProtectedHeader({ alg: 'ES256', kid: 'KEY123' })
        .setIssuer('TEAM123')
        .setSubject('com.example.web')
        .setAudience('https://appleid.apple.com')
        .setIssuedAt(now)
        .setExpirationTime(now + 300)
        .sign(await importPKCS8(key.privateKeyPem, 'ES256'));
      apple.scriptCode(
        'apple-code',
        { sub: '001.abc', email: 'x@privaterelay.appleid.com' },
        {
          expectClientSecret: async (secret) =>
            !!(await jwtVerify(secret, key.publicKey, { issuer: 'TEAM123', audience: 'https://appleid.apple.com' }).catch(() => null)),
        },
      );
      const res = await form(apple.tokenUrl, {
        grant_type: 'authorization_code',
        code: 'apple-code',
        client_id: 'com.example.web',
        client_secret: clientSecret,
      });
      expect(res.status).toBe(200);
      expect(apple.tokenUrl).toBe(`${apple.url}/auth/token`);
      const sent = FakeOidc.decodeJwt(apple.tokenRequests()[0].clientSecret!);
      expect(sent.header).toMatchObject({ alg: 'ES256', kid: 'KEY123' });
      expect(sent.payload).toMatchObject({ iss: 'TEAM123', sub: 'com.example.web', aud: 'https://appleid.apple.com' });
      const jwks = createRemoteJWKSet(new URL(`${apple.url}/auth/keys`));
      const { payload } = await jwtVerify(res.body.id_token, jwks, { issuer: 'https://appleid.apple.com', audience: 'com.example.web' });
      expect(payload.sub).toBe('001.abc');
    });
  });

  describe('as Firebase', () => {
    const firebase = FakeOidc.firebase('my-project');
    beforeAll(() => firebase.start());
    afterAll(() => firebase.stop());

    it('issues securetoken tokens for the project, with Firebase claims', async () => {
      const jwks = createRemoteJWKSet(new URL(`${firebase.url}/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com`));
      const token = await firebase.signIdToken({ sub: 'uid-1', email: 'c@example.com' });
      const { payload } = await jwtVerify(token, jwks, { issuer: 'https://securetoken.google.com/my-project', audience: 'my-project' });
      expect(payload).toMatchObject({ user_id: 'uid-1', firebase: { identities: { email: ['c@example.com'] } } });
      expect(payload.auth_time).toBe(payload.iat);
    });
  });
});
