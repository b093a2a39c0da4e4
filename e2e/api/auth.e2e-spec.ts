import type { EmbeddedStack } from '@app/embedded';
import { FakeOidc, TRANSPORTS } from '@app/testing';
import { strFromU8, unzipSync } from 'fflate';
import { importJWK, SignJWT } from 'jose';
import { Client } from 'pg';
import { startTestStack, type TestStack } from '../support/test-stack';
import { ApiClient, binary, eventually, phoneNumbers } from '../support/api-client';

const GOOGLE_CLIENT = 'google-client.apps.example';
const APPLE_SERVICE = 'com.example.assistant.web';
const APPLE_APP = 'com.example.assistant';
const FIREBASE_PROJECT = 'assistant-demo';
const CAMPAIGNS = [{ campaign_name: 'spring', title: 'Spring', text: 'Plan your garden', starter_prompts: ['What can I plant in April?'] }];

/**
 * Accounts and sign-in through the real gateway, on both transports, with Google, Apple and
 * Firebase played by local OIDC fakes and texts read from the development inbox.
 */
describe.each(TRANSPORTS)('accounts and sign-in over the %s transport', (transport) => {
  let stack: EmbeddedStack;
  let db: Client;
  let booted: TestStack;
  const google = FakeOidc.google({ audience: GOOGLE_CLIENT });
  const apple = FakeOidc.apple({ audience: APPLE_SERVICE, alg: 'ES256' });
  const firebase = FakeOidc.firebase(FIREBASE_PROJECT);
  let appleKey: Awaited<ReturnType<typeof FakeOidc.appleClientKey>>;
  const nextPhone = phoneNumbers(1000);

  const client = () => new ApiClient(stack.url);

  const codeFor = (phone: string) => client().smsCodeFor(phone);
  const phoneSignIn = (api: ApiClient, phone: string, extra = '') => api.signInByPhone(phone, extra);

  /** A token signed with the service's own key (read from its schema), to forge expired or foreign ones. */
  async function forge(claims: Record<string, unknown>, options: { expiresIn?: string | number; audience?: string } = {}) {
    const { rows } = await db.query('SELECT kid, private_jwk FROM auth.signing_key ORDER BY created_at DESC LIMIT 1');
    const key = await importJWK(rows[0].private_jwk, 'ES256');
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: rows[0].kid })
      .setIssuer('assistant')
      .setAudience(options.audience ?? 'assistant-api')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(options.expiresIn ?? '1h')
      .sign(key);
  }

  beforeAll(async () => {
    const [g, a, f] = await Promise.all([google.start(), apple.start(), firebase.start()]);
    appleKey = await FakeOidc.appleClientKey('KEY1234567');
    booted = await startTestStack('auth', transport, {
      GOOGLE_CLIENT_ID: GOOGLE_CLIENT,
      GOOGLE_CLIENT_SECRET: 'google-secret',
      GOOGLE_TOKEN_URL: `${g.url}/token`,
      GOOGLE_AUTHORIZATION_URL: `${g.url}/o/oauth2/v2/auth`,
      GOOGLE_JWKS_URL: `${g.url}/oauth2/v3/certs`,
      APPLE_SERVICE_ID: APPLE_SERVICE,
      APPLE_APP_CLIENT_ID: APPLE_APP,
      APPLE_TEAM_ID: 'TEAM123456',
      APPLE_KEY_ID: appleKey.keyId,
      APPLE_PRIVATE_KEY: appleKey.privateKeyPem.replace(/\n/g, '\\n'),
      APPLE_REDIRECT_URI: 'https://assistant.example/login',
      APPLE_TOKEN_URL: `${a.url}/auth/token`,
      APPLE_JWKS_URL: `${a.url}/auth/keys`,
      FIREBASE_PROJECT_ID: FIREBASE_PROJECT,
      FIREBASE_API_KEY: 'firebase-web-key',
      FIREBASE_JWKS_URL: `${f.url}/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com`,
      CAMPAIGNS_JSON: JSON.stringify(CAMPAIGNS),
      PHONE_CODES_PER_IP: '1000',
      PHONE_VERIFY_PER_IP: '1000',
    });
    ({ stack, db } = booted);
  });

  afterAll(async () => {
    await booted?.close();
    await Promise.all([google.stop(), apple.stop(), firebase.stop()]);
  });

  describe('guests and tokens', () => {
    it('creates a guest who is signed in at once, with the file-view cookie and the session header', async () => {
      const api = client();
      const res = await api.http.post('/api/v1/auth/anon').expect(200);
      expect(res.body).toEqual({ token: expect.any(String), error: null, redirect_url: null });
      const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('access_token='))!;
      expect(cookie).toContain('Path=/api/v1/files/view');
      expect(cookie).toContain('Max-Age=7776000');
      expect(cookie).toContain('SameSite=Strict');
      expect(cookie).toContain('HttpOnly');
      api.token = res.body.token;
      const me = await api.get('/api/v1/auth/me').expect(200);
      expect(me.body).toMatchObject({ is_anon: true, onboarding_config: { registered: false, onboarding_done: false }, name: null });
      const session = await api.get('/api/v1/auth/session-id').expect(200);
      expect(session.body.session_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(session.headers['x-user-session-id']).toBe(session.body.session_id);
      expect(res.headers['x-user-session-id']).toBe(session.body.session_id);
    });

    it('refuses data calls without a valid token: missing, garbage, tampered, unsigned, expired, foreign', async () => {
      const api = client();
      await api.get('/api/v1/auth/me').expect(401, { detail: 'Not authenticated' });
      const token = await api.guest();
      const [header, payload, signature] = token.split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: '00000000-0000-4000-8000-000000000000' })).toString('base64url')}.${signature}`;
      const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
      const expired = await forge({ sub: claims.sub, sid: claims.sid, anon: true }, { expiresIn: Math.floor(Date.now() / 1000) - 60 });
      const foreign = await forge({ sub: claims.sub, sid: claims.sid, anon: true }, { audience: 'someone-else' });
      for (const bad of ['garbage', tampered, unsigned, expired, foreign]) {
        const res = await client().http.get('/api/v1/auth/me').set('Authorization', `Bearer ${bad}`).expect(401);
        expect(res.body).toEqual({ detail: 'Your session has ended. Please sign in again.' });
      }
      // The genuine token still works, and a forged-but-valid one would too: the check is the signature.
      await api.get('/api/v1/auth/me').expect(200);
    });

    it("refuses a token signed with the real key that names another user with one's own live session (issue 22.3)", async () => {
      const victim = client();
      await victim.guest();
      const victimId = (await victim.get('/api/v1/auth/me').expect(200)).body.user_id as string;
      const attacker = client();
      const own = await attacker.guest();
      const claims = JSON.parse(Buffer.from(own.split('.')[1], 'base64url').toString());
      await attacker.get('/api/v1/auth/me').expect(200); // the attacker's session is live and cached active
      const borrowed = await forge({ sub: victimId, sid: claims.sid, anon: true });
      const res = await client().http.get('/api/v1/auth/me').set('Authorization', `Bearer ${borrowed}`).expect(401);
      expect(res.body).toEqual({ detail: 'Your session has ended. Please sign in again.' });
      await victim.get('/api/v1/auth/me').expect(200);
      await attacker.get('/api/v1/auth/me').expect(200);
    });

    it('ends the session everywhere at logout, which needs the CSRF token', async () => {
      const api = client();
      await api.guest();
      await api.post('/api/v1/auth/logout').expect(403, { detail: 'Missing or invalid CSRF token. Reload the page and try again.' });
      await api.fetchCsrf();
      // The right token, but a request another site started (Fetch Metadata): refused too.
      await api.withCsrf(api.http.post('/api/v1/auth/logout')).set('Sec-Fetch-Site', 'cross-site').expect(403);
      await api.get('/api/v1/auth/me').expect(200);
      const res = await api
        .withCsrf(api.http.post('/api/v1/auth/logout'))
        .set('Sec-Fetch-Site', 'same-origin')
        .expect(200, { logged_out: true });
      expect((res.headers['set-cookie'] as unknown as string[]).join()).toMatch(/access_token=;/);
      await api.get('/api/v1/auth/me').expect(401, { detail: 'Your session has ended. Please sign in again.' });
    });

    it('ends every session of the account on every device with {"all": true}, and only that account', async () => {
      const phone = nextPhone();
      const laptop = client();
      const phoneApp = client();
      await laptop.signInByPhone(phone);
      await phoneApp.signInByPhone(phone);
      const stranger = client();
      await stranger.signInByPhone(nextPhone());
      await laptop.get('/api/v1/auth/me').expect(200);
      await phoneApp.get('/api/v1/auth/me').expect(200);
      await laptop.fetchCsrf();
      await laptop.withCsrf(laptop.http.post('/api/v1/auth/logout')).send({ all: 'yes' }).expect(422);
      await laptop.withCsrf(laptop.http.post('/api/v1/auth/logout')).send({ all: true }).expect(200, { logged_out: true });
      await laptop.get('/api/v1/auth/me').expect(401);
      await phoneApp.get('/api/v1/auth/me').expect(401);
      await stranger.get('/api/v1/auth/me').expect(200);
      const { rows } = await db.query(
        'SELECT count(*) FILTER (WHERE revoked_at IS NULL)::int AS live FROM auth.session s JOIN auth.app_user u ON u.id = s.user_id WHERE u.phone_number = $1',
        [phone],
      );
      expect(rows[0].live).toBe(0);
      // The query form does the same.
      const again = client();
      await again.signInByPhone(phone);
      await again.fetchCsrf();
      await again.withCsrf(again.http.post('/api/v1/auth/logout?all=true')).expect(200, { logged_out: true });
      await again.get('/api/v1/auth/me').expect(401);
    });
  });

  describe('phone number', () => {
    it('texts a code and signs the browser in through the callback; the guest keeps their account', async () => {
      const api = client();
      const guestToken = await api.guest();
      const guestId = (await api.get('/api/v1/auth/me')).body.user_id;
      const phone = nextPhone();
      await api.fetchCsrf();
      await api.post('/api/v1/auth/login/phone_number', { phone_number: phone }).expect(403);
      const sent = await api.requestPhoneCode(phone);
      expect(sent.status).toBe(200);
      expect(sent.body).toEqual({ sent: true, expires_in_seconds: 600 });
      // The browser that asked holds the binding cookie: random, HttpOnly, SameSite=Strict, for the callback only, as long as the code.
      const binding = (sent.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('phone_login='))!;
      expect(binding).toMatch(/^phone_login=[A-Za-z0-9_-]{43};/);
      expect(binding).toContain('Path=/api/v1/auth/callback');
      expect(binding).toContain('Max-Age=600');
      expect(binding).toContain('HttpOnly');
      expect(binding).toContain('SameSite=Strict');
      const code = await codeFor(phone);
      const wrong = code === '000000' ? '111111' : '000000';
      // A wrong code keeps the page on the code step and says how many tries are left.
      const refused = await api.phoneCallback(phone, wrong).expect(302);
      expect(refused.headers.location).toBe(`/login?step=code&error=${encodeURIComponent('That code is not right. 4 tries left.')}`);
      const ok = await api.phoneCallback(phone, code).expect(302);
      expect(ok.headers.location).toMatch(/^\/login-success#access_token=[^&]+$/);
      expect(ok.headers['cache-control']).toBe('no-store');
      expect(ok.headers['referrer-policy']).toBe('no-referrer');
      expect((ok.headers['set-cookie'] as unknown as string[]).join()).toMatch(/phone_login=;/); // used: cleared
      api.token = decodeURIComponent(String(ok.headers.location).split('#access_token=')[1]);
      const me = (await api.get('/api/v1/auth/me').expect(200)).body;
      expect(me).toMatchObject({ user_id: guestId, is_anon: false, phone_number: phone });
      expect(api.token).not.toBe(guestToken);
      // The guest's own token ended with the guest: the browser holds the account's token now.
      await client().http.get('/api/v1/auth/me').set('Authorization', `Bearer ${guestToken}`).expect(401);
      // The code is spent.
      const again = await api.phoneCallback(phone, code).expect(302);
      expect(again.headers.location).toBe(
        `/login?step=code&error=${encodeURIComponent('This code has already been used. Ask for a new one.')}`,
      );
      // Signing in again with the same number finds the same account.
      const other = client();
      await phoneSignIn(other, phone);
      expect((await other.get('/api/v1/auth/me')).body.user_id).toBe(guestId);
    });

    it('burns a code after 5 wrong tries, and refuses an expired one', async () => {
      const api = client();
      const phone = nextPhone();
      await api.fetchCsrf();
      expect((await api.requestPhoneCode(phone)).status).toBe(200);
      const code = await codeFor(phone);
      const wrong = code === '000000' ? '111111' : '000000';
      const onCodeStep = (detail: string) => `/login?step=code&error=${encodeURIComponent(detail)}`;
      for (const left of ['4 tries', '3 tries', '2 tries', '1 try']) {
        expect((await api.phoneCallback(phone, wrong).expect(302)).headers.location).toBe(
          onCodeStep(`That code is not right. ${left} left.`),
        );
      }
      const usedUp = onCodeStep('This code was used up by too many wrong tries. Ask for a new one.');
      expect((await api.phoneCallback(phone, wrong).expect(302)).headers.location).toBe(usedUp);
      // Even the right code: the code is used up (not "expired"), and no sign-in happens.
      const late = await api.phoneCallback(phone, code).expect(302);
      expect(late.headers.location).toBe(usedUp);

      const second = nextPhone();
      expect((await api.requestPhoneCode(second)).status).toBe(200);
      const secondCode = await codeFor(second);
      await db.query("UPDATE auth.phone_code SET expires_at = now() - interval '1 second' WHERE phone_number = $1", [second]);
      expect((await api.phoneCallback(second, secondCode)).headers.location).toBe(onCodeStep('This code has expired. Ask for a new one.'));
      const codes = await db.query('SELECT code_hash FROM auth.phone_code WHERE phone_number = $1', [second]);
      expect(codes.rows[0].code_hash).not.toContain(secondCode); // stored hashed
    });

    it('limits codes per number, refuses blocked countries and bad numbers with clear errors', async () => {
      const api = client();
      await api.fetchCsrf();
      const phone = nextPhone();
      const send = (n: string) => api.withCsrf(api.http.post('/api/v1/auth/login/phone_number')).send({ phone_number: n });
      for (let i = 0; i < 3; i++) await send(phone).expect(200);
      await send(phone).expect(429, { detail: 'Too many codes were requested for this number. Try again in 10 minutes.' });
      await send('+86 138 0013 8000').expect(451, { detail: 'The assistant is not available in your region.' });
      // Texts shown to people name no field.
      await send('12345').expect(400, { detail: 'Enter a valid mobile number in international form, like +14155550123' });
      await api.withCsrf(api.http.post('/api/v1/auth/login/phone_number')).send({}).expect(422);
      const incomplete = await api.http.get('/api/v1/auth/callback/phone_number?phone_number=%2B14155550000').expect(302);
      expect(incomplete.headers.location).toBe(`/login?error=${encodeURIComponent('The sign-in link is incomplete. Ask for a new code.')}`);
    });

    it('answers 451 to requests from a blocked region', async () => {
      await client()
        .http.post('/api/v1/auth/anon')
        .set('CF-IPCountry', 'CN')
        .expect(451, { detail: 'The assistant is not available in your region.' });
      await client().http.post('/api/v1/auth/anon').set('CF-IPCountry', 'PT').expect(200);
    });
  });

  describe('a phone sign-in belongs to the browser that asked for the code', () => {
    const OTHER_BROWSER = 'This code was requested in another browser. Ask for a new code here.';
    const tokenIn = (location: string) => decodeURIComponent(location.split('#access_token=')[1].split('&')[0]);
    const meOf = async (api: ApiClient) => (await api.get('/api/v1/auth/me').expect(200)).body;

    it("a guest who asks for a code for someone else's number cannot take their new account over (issue 11, High 1)", async () => {
      const phone = nextPhone();
      const intruder = client();
      await intruder.guest();
      const intruderId = (await meOf(intruder)).user_id;
      await intruder.fetchCsrf();
      expect((await intruder.requestPhoneCode(phone)).status).toBe(200);

      // The number's owner, in their own browser (no token, no cookie), enters the code that reached their phone.
      const owner = client();
      const attempt = await owner.phoneCallback(phone, await codeFor(phone)).expect(302);
      if (String(attempt.headers.location).startsWith('/login-success')) {
        owner.token = tokenIn(String(attempt.headers.location));
      } else {
        expect(attempt.headers.location).toBe(`/login?error=${encodeURIComponent(OTHER_BROWSER)}`);
        await owner.signInByPhone(phone); // a code of their own, asked for here
      }
      const ownerChat = (await owner.post('/api/v1/chats/', { conversation_title: "The owner's private plans" }).expect(201)).body.chat_id;

      // The intruder is still the guest they were, and sees nothing of the owner's.
      const chats = (await intruder.get('/api/v1/chats/').expect(200)).body as { chat_id: string }[];
      expect(chats.map((c) => c.chat_id)).not.toContain(ownerChat);
      expect(await meOf(intruder)).toMatchObject({ user_id: intruderId, is_anon: true, phone_number: null });
      expect(await meOf(owner)).toMatchObject({ is_anon: false, phone_number: phone });
      expect((await meOf(owner)).user_id).not.toBe(intruderId);
    });

    it('another browser can neither complete a code nor spend its tries; a navigation from another site is refused', async () => {
      const phone = nextPhone();
      const asker = client();
      await asker.guest();
      const guestId = (await meOf(asker)).user_id;
      await asker.fetchCsrf();
      expect((await asker.requestPhoneCode(phone)).status).toBe(200);
      const code = await codeFor(phone);
      const nonce = asker.phoneLogin!.split('=')[1];

      const noCookie = client();
      const otherCookie = client();
      otherCookie.phoneLogin = `phone_login=${'A'.repeat(43)}`;
      for (const other of [noCookie, otherCookie]) {
        for (const tried of [code, code === '000000' ? '111111' : '000000']) {
          const res = await other.phoneCallback(phone, tried).expect(302);
          expect(res.headers.location).toBe(`/login?error=${encodeURIComponent(OTHER_BROWSER)}`);
          expect(String(res.headers['set-cookie'] ?? '')).not.toContain('access_token=');
        }
      }
      for (const site of ['cross-site', 'same-site']) {
        const res = await asker.phoneCallback(phone, code).set('Sec-Fetch-Site', site).expect(302);
        expect(res.headers.location).toBe(
          `/login?error=${encodeURIComponent('This sign-in link was opened from another site. Enter your code on this page instead.')}`,
        );
      }
      const malformed = await asker.phoneCallback(phone, code, '&login_state=short').expect(302);
      expect(malformed.headers.location).toBe(`/login?error=${encodeURIComponent('The sign-in link is incomplete. Ask for a new code.')}`);
      // Nothing was used or counted, and only a hash of the browser's nonce is stored.
      const stored = await db.query('SELECT attempts, consumed_at, binding_hash FROM auth.phone_code WHERE phone_number = $1', [phone]);
      expect(stored.rows).toEqual([{ attempts: 0, consumed_at: null, binding_hash: expect.any(String) }]);
      expect(stored.rows[0].binding_hash).not.toContain(nonce);

      // The asking browser completes it (its page's nonce echoed); the guest becomes the account.
      const loginState = 'Zm9vYmFyYmF6cXV4cXV1eA';
      const done = await asker.phoneCallback(phone, code, `&login_state=${loginState}`).set('Sec-Fetch-Site', 'same-origin').expect(302);
      expect(done.headers.location).toMatch(new RegExp(`^/login-success#access_token=[^&]+&login_state=${loginState}$`));
      asker.token = tokenIn(String(done.headers.location));
      expect(await meOf(asker)).toMatchObject({ user_id: guestId, is_anon: false, phone_number: phone });
    });

    it('a guest whose session ended before the code was entered is not carried into the account', async () => {
      const phone = nextPhone();
      const api = client();
      const guestToken = await api.guest();
      const guestId = (await meOf(api)).user_id;
      const guestChat = (await api.post('/api/v1/chats/', { conversation_title: 'Made as a guest' }).expect(201)).body.chat_id;
      await api.fetchCsrf();
      expect((await api.requestPhoneCode(phone)).status).toBe(200);
      await api.withCsrf(api.http.post('/api/v1/auth/logout')).expect(200);
      const done = await api.phoneCallback(phone, await codeFor(phone)).expect(302);
      api.token = tokenIn(String(done.headers.location));
      const me = await meOf(api);
      expect(me).toMatchObject({ is_anon: false, phone_number: phone });
      expect(me.user_id).not.toBe(guestId);
      expect(((await api.get('/api/v1/chats/').expect(200)).body as { chat_id: string }[]).map((c) => c.chat_id)).not.toContain(guestChat);
      await client().http.get('/api/v1/auth/me').set('Authorization', `Bearer ${guestToken}`).expect(401);
    });
  });

  describe('Google, Apple and Firebase', () => {
    it('publishes each provider configuration', async () => {
      await client().http.get('/api/v1/auth/google/config').expect(200, { client_id: GOOGLE_CLIENT });
      await client()
        .http.get('/api/v1/auth/apple/config')
        .expect(200, { client_id: APPLE_SERVICE, redirect_uri: 'https://assistant.example/login', scope: 'name email' });
      await client()
        .http.get('/api/v1/auth/firebase/config')
        .expect(200, { api_key: 'firebase-web-key', auth_domain: `${FIREBASE_PROJECT}.firebaseapp.com`, project_id: FIREBASE_PROJECT });
    });

    it('signs in with a Google code exchanged with redirect URI postmessage', async () => {
      google.scriptCode(
        'g-code-1',
        { sub: `g-${transport}-1`, email: 'ada@example.com', email_verified: true, name: 'Ada' },
        { expectRedirectUri: 'postmessage', expectClientSecret: 'google-secret' },
      );
      const api = client();
      await api.fetchCsrf();
      const res = await api
        .withCsrf(api.http.post('/api/v1/auth/login/google'))
        .send({ code: 'g-code-1', invite_link_id: null })
        .expect(200);
      expect(res.body).toEqual({ token: expect.any(String), error: null, redirect_url: '/new-user' });
      api.token = res.body.token;
      expect((await api.get('/api/v1/auth/me')).body).toMatchObject({ email: 'ada@example.com', name: 'Ada', is_anon: false });
      const refused = await api.withCsrf(api.http.post('/api/v1/auth/login/google')).send({ code: 'never-issued' }).expect(401);
      expect(refused.body).toEqual({ detail: 'Google refused the sign-in code. Please sign in again.' });
    });

    it("rejects a Google ID token that is not Google's to give", async () => {
      for (const [options, reason] of [
        [{ wrongAudience: true }, "the token's aud is not right"],
        [{ expired: true }, 'the token has expired'],
        [{ unknownKey: true }, 'the token is not signed by the provider'],
      ] as const) {
        google.scriptCode(`bad-${reason}`, { sub: 'g-bad' }, { idToken: options });
        const api = client();
        await api.fetchCsrf();
        const res = await api
          .withCsrf(api.http.post('/api/v1/auth/login/google'))
          .send({ code: `bad-${reason}` })
          .expect(401);
        expect(res.body.detail).toBe(`Google sign-in failed: ${reason}.`);
      }
    });

    it('signs in with Apple: ID token checked (audience, nonce) and code exchanged with an ES256 client secret', async () => {
      const sub = `apple-${transport}-1`;
      const idToken = await apple.signIdToken({ sub, aud: APPLE_SERVICE, email: 'grace@privaterelay.example', nonce: 'n-123' });
      apple.scriptCode(
        'a-code-1',
        { sub, aud: APPLE_SERVICE },
        {
          expectClientSecret: async (secret) => {
            const { header, payload } = FakeOidc.decodeJwt(secret);
            return (
              header.alg === 'ES256' &&
              header.kid === appleKey.keyId &&
              payload.iss === 'TEAM123456' &&
              payload.sub === APPLE_SERVICE &&
              payload.aud === 'https://appleid.apple.com'
            );
          },
        },
      );
      const api = client();
      await api.fetchCsrf();
      const wrongNonce = await api
        .withCsrf(api.http.post('/api/v1/auth/login/apple'))
        .send({ id_token: idToken, nonce: 'other' })
        .expect(401);
      expect(wrongNonce.body.detail).toBe('Apple sign-in failed: the nonce does not match.');
      const res = await api
        .withCsrf(api.http.post('/api/v1/auth/login/apple'))
        .send({ code: 'a-code-1', id_token: idToken, state: 's', nonce: 'n-123', invite_link_id: null, use_app_client_id: false })
        .expect(200);
      expect(res.body.token).toEqual(expect.any(String));
      expect(apple.tokenRequests().at(-1)?.status).toBe(200);
      // The app's client id is another audience.
      const appToken = await apple.signIdToken({ sub, aud: APPLE_APP });
      await api.withCsrf(api.http.post('/api/v1/auth/login/apple')).send({ id_token: appToken, use_app_client_id: true }).expect(200);
      await api.withCsrf(api.http.post('/api/v1/auth/login/apple')).send({ id_token: appToken, use_app_client_id: false }).expect(401);
    });

    it('signs in with a Firebase ID token, refusing unsigned and expired ones', async () => {
      const api = client();
      await api.fetchCsrf();
      const good = await firebase.signIdToken({ sub: `fb-${transport}-1`, email: 'lin@example.com' });
      await api.withCsrf(api.http.post('/api/v1/auth/login/firebase')).send({ id_token: good, provider: 'password' }).expect(200);
      const unsigned = await firebase.signIdToken({ sub: 'fb-x' }, { algNone: true });
      await api.withCsrf(api.http.post('/api/v1/auth/login/firebase')).send({ id_token: unsigned }).expect(401);
      const expired = await firebase.signIdToken({ sub: 'fb-x' }, { expired: true });
      const res = await api.withCsrf(api.http.post('/api/v1/auth/login/firebase')).send({ id_token: expired }).expect(401);
      expect(res.body.detail).toBe('Firebase sign-in failed: the token has expired.');
    });

    it('signs a guest into the account already linked to the provider, ending the guest', async () => {
      const sub = `fb-${transport}-owner`;
      const owner = client();
      await owner.fetchCsrf();
      owner.token = (
        await owner
          .withCsrf(owner.http.post('/api/v1/auth/login/firebase'))
          .send({ id_token: await firebase.signIdToken({ sub }) })
          .expect(200)
      ).body.token;
      const ownerId = (await owner.get('/api/v1/auth/me')).body.user_id;

      const guest = client();
      await guest.guest();
      const guestToken = guest.token;
      const guestId = (await guest.get('/api/v1/auth/me')).body.user_id;
      const guestChat = (await guest.post('/api/v1/chats/', { conversation_title: 'Made as a guest' }).expect(201)).body.chat_id;
      await guest.post('/api/v1/user_config/ai-voice', { voice: 'verse' }).expect(200);
      await guest.fetchCsrf();
      const res = await guest
        .withCsrf(guest.http.post('/api/v1/auth/login/firebase'))
        .send({ id_token: await firebase.signIdToken({ sub }) })
        .expect(200);
      guest.token = res.body.token;
      expect((await guest.get('/api/v1/auth/me')).body.user_id).toBe(ownerId);
      await client().http.get('/api/v1/auth/me').set('Authorization', `Bearer ${guestToken}`).expect(401);
      // What the guest did moves to the account (events.user.merged), settings excepted: the account keeps its own.
      await eventually(async () => {
        const chats = (await owner.get('/api/v1/chats/').expect(200)).body as { chat_id: string }[];
        return chats.some((c) => c.chat_id === guestChat) ? true : undefined;
      });
      expect((await owner.get('/api/v1/user_config/ai-voice').expect(200)).body.voice).toBe('alloy');
      await eventually(async () => {
        const { rows } = await db.query('SELECT count(*)::int AS n FROM insider_config.voice_config WHERE user_id = $1', [guestId]);
        return rows[0].n === 0 ? true : undefined;
      });
    });
  });

  describe('Google redirect flow (passport)', () => {
    it('sends the browser to Google and back, checking the state, then signs it in', async () => {
      google.reset();
      const api = client();
      const loginState = 'page-nonce_0123456789abcdef';
      const start = await api.http.get(`/api/v1/auth/google/redirect?campaign_name=spring&login_state=${loginState}`).expect(302);
      const authorize = new URL(String(start.headers.location));
      expect(authorize.searchParams.get('client_id')).toBe(GOOGLE_CLIENT);
      expect(authorize.searchParams.get('scope')).toBe('openid email profile');
      const callbackUrl = authorize.searchParams.get('redirect_uri')!;
      expect(new URL(callbackUrl).pathname).toBe('/api/v1/auth/google/callback');
      const stateCookie = (start.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('google_oauth='))!.split(';')[0];

      google.scriptCode(
        'redirect-code',
        { sub: `g-${transport}-redirect`, email: 'bob@example.com', email_verified: true },
        { expectRedirectUri: callbackUrl, expectClientSecret: 'google-secret' },
      );
      const atGoogle = await fetch(authorize, { redirect: 'manual' });
      const back = new URL(atGoogle.headers.get('location')!);
      expect(back.searchParams.get('code')).toBe('redirect-code');

      const malformedState = await api.http.get('/api/v1/auth/google/redirect?login_state=short').expect(302);
      expect(malformedState.headers.location).toBe(
        `/login?error=${encodeURIComponent('Google sign-in could not start. Reload the page and try again.')}`,
      );
      const forged = await api.http.get(`${back.pathname}?code=redirect-code&state=forged`).set('Cookie', stateCookie).expect(302);
      expect(forged.headers.location).toBe(`/login?error=${encodeURIComponent('The Google sign-in expired. Please try again.')}`);
      const done = await api.http.get(`${back.pathname}${back.search}`).set('Cookie', stateCookie).expect(302);
      // The page's nonce comes back beside the token: the page accepts only a sign-in it started.
      expect(done.headers.location).toMatch(new RegExp(`^/login-success#access_token=[^&]+&login_state=${loginState}$`));
      api.token = decodeURIComponent(String(done.headers.location).split('#access_token=')[1].split('&')[0]);
      expect((await api.get('/api/v1/auth/me').expect(200)).body).toMatchObject({ email: 'bob@example.com', campaign_name: 'spring' });
    });
  });

  describe('onboarding', () => {
    it('goes from unregistered to done, refusing minors and guests', async () => {
      const api = client();
      await phoneSignIn(api, nextPhone());
      const tooYoung = new Date(Date.now() - 17 * 365.25 * 24 * 3600 * 1000).toISOString().slice(0, 10);
      await api
        .post('/api/v1/onboarding/age', { birth_date: tooYoung })
        .expect(403, { detail: 'You must be 18 or older to use the assistant.' });
      expect((await api.get('/api/v1/auth/me')).body.onboarding_config).toEqual({ registered: false, onboarding_done: false });
      await api.post('/api/v1/onboarding/done').expect(409, { detail: 'Confirm your age and your name first.' });
      const badDate = await api.post('/api/v1/onboarding/age', { birth_date: '23/04/1990' }).expect(422);
      expect(badDate.body.detail).toMatch(/^birth_date: /);
      await api
        .post('/api/v1/onboarding/age', { birth_date: '1890-04-23' })
        .expect(400, { detail: 'This date of birth is not possible. Check the year.' });
      await api.post('/api/v1/onboarding/age', { birth_date: '1990-04-23' }).expect(200);
      const named = await api.post('/api/v1/onboarding/profile', { name: '  Ada Lovelace ' }).expect(200);
      expect(named.body).toMatchObject({ name: 'Ada Lovelace', onboarding_config: { registered: true, onboarding_done: false } });
      const done = await api.post('/api/v1/onboarding/done').expect(200);
      expect(done.body.onboarding_config).toEqual({ registered: true, onboarding_done: true });

      const guest = client();
      await guest.guest();
      await guest.post('/api/v1/onboarding/age', { birth_date: '1990-04-23' }).expect(403, { detail: 'Sign in to continue.' });
    });
  });

  describe('invites and campaigns', () => {
    it('lets only users with can_create_invite make invites, which sign-ins then use up', async () => {
      const inviter = client();
      await phoneSignIn(inviter, nextPhone());
      const inviterId = (await inviter.get('/api/v1/auth/me')).body.user_id;
      await inviter.post('/api/v1/invites', { max_uses: 1 }).expect(403, { detail: 'You are not allowed to create invites.' });
      await db.query(
        `INSERT INTO insider_config.insider_status (user_id, is_insider, is_insider_enabled, flags) VALUES ($1, true, false, '{"can_create_invite": true}')`,
        [inviterId],
      );
      const invite = (await inviter.post('/api/v1/invites', { max_uses: 1, expires_in_days: 3 }).expect(201)).body;
      expect(invite).toMatchObject({ max_uses: 1, uses: 0, group_id: null });

      google.scriptCode('invite-code-1', { sub: `g-${transport}-invited-1` });
      const first = client();
      await first.fetchCsrf();
      const ok = await first
        .withCsrf(first.http.post('/api/v1/auth/login/google'))
        .send({ code: 'invite-code-1', invite_link_id: invite.invite_link_id })
        .expect(200);
      expect(ok.body.token).toEqual(expect.any(String));

      google.scriptCode('invite-code-2', { sub: `g-${transport}-invited-2` });
      const second = client();
      await second.fetchCsrf();
      const used = await second
        .withCsrf(second.http.post('/api/v1/auth/login/google'))
        .send({ code: 'invite-code-2', invite_link_id: invite.invite_link_id })
        .expect(200);
      expect(used.body).toEqual({
        token: null,
        error: 'This invite link is not valid any more. It may have expired or been used up.',
        redirect_url: '/login-invite-error',
      });

      const phone = nextPhone();
      await second.withCsrf(second.http.post('/api/v1/auth/login/phone_number')).send({ phone_number: phone }).expect(200);
      const bad = await second.http
        .get(
          `/api/v1/auth/callback/phone_number?phone_number=${encodeURIComponent(phone)}&code=${await codeFor(phone)}&invite_link_id=nope`,
        )
        .expect(302);
      expect(bad.headers.location).toBe('/login-invite-error');
    });

    it('serves campaign pages and records the campaign a user signed in through', async () => {
      await client().http.get('/api/v1/campaigns/spring').expect(200, CAMPAIGNS[0]);
      await client().http.get('/api/v1/campaigns/winter').expect(404, { detail: 'No such campaign.' });
      const api = client();
      await phoneSignIn(api, nextPhone(), '&campaign_name=spring');
      expect((await api.get('/api/v1/auth/me')).body.campaign_name).toBe('spring');
    });
  });

  describe('data rights', () => {
    it('exports everything in one zip, then deletes the account leaving no row of it', async () => {
      const api = client();
      const phone = nextPhone();
      await phoneSignIn(api, phone);
      const userId = (await api.get('/api/v1/auth/me')).body.user_id;
      const exported = await binary(api.get('/api/v1/users/me/export')).expect(200);
      expect(exported.headers['content-type']).toBe('application/zip');
      expect(exported.headers['content-disposition']).toMatch(/^attachment; filename="assistant-export-\d{4}-\d{2}-\d{2}\.zip"$/);
      const files = unzipSync(new Uint8Array(exported.body as Buffer));
      expect(Object.keys(files).sort()).toEqual([
        'README.txt',
        'auth.json',
        'chat.json',
        'files.json',
        'insider-config.json',
        'memory.json',
        'sms.json',
        'tts.json',
      ]);
      const auth = JSON.parse(strFromU8(files['auth.json']));
      expect(auth.app_user).toEqual([expect.objectContaining({ id: userId, phone_number: phone })]);
      expect(auth.identity).toEqual([expect.objectContaining({ provider: 'phone', subject: phone })]);
      expect(JSON.stringify(auth)).not.toMatch(/code_hash|private_jwk/);

      await api.delete('/api/v1/users/me').expect(204);
      await api.get('/api/v1/auth/me').expect(401);
      for (const [table, column] of [
        ['app_user', 'id'],
        ['identity', 'user_id'],
        ['session', 'user_id'],
        ['invite_redemption', 'user_id'],
      ]) {
        const { rows } = await db.query(`SELECT count(*)::int AS n FROM auth.${table} WHERE ${column} = $1`, [userId]);
        expect(rows[0].n).toBe(0);
      }
      const codes = await db.query('SELECT count(*)::int AS n FROM auth.phone_code WHERE phone_number = $1', [phone]);
      expect(codes.rows[0].n).toBe(0);
      const deletion = await db.query(
        'SELECT user_id, completed_at, pending_services FROM auth.account_deletion ORDER BY requested_at DESC LIMIT 1',
      );
      expect(deletion.rows[0]).toMatchObject({ user_id: null, pending_services: [] });
      expect(deletion.rows[0].completed_at).not.toBeNull();
    });
  });
});
