import { createHash } from 'node:crypto';
import { FakeOidc, refusal } from '@app/testing';
import { authEnvSchema, type AuthConfig } from '../../config';
import { ProviderLoginService } from './provider-login.service';

/** A port nothing listens on: the provider is down. */
const DOWN = 'http://127.0.0.1:9/unreachable';
const GOOGLE_CLIENT = 'client-1.apps.googleusercontent.com';
const APPLE_WEB = 'com.example.web';
const APPLE_APP = 'com.example.app';
const PROJECT = 'assistant-test';

const google = FakeOidc.google({ audience: GOOGLE_CLIENT });
const apple = FakeOidc.apple({ audience: APPLE_WEB });
const firebase = FakeOidc.firebase(PROJECT);
let appleKey: Awaited<ReturnType<typeof FakeOidc.appleClientKey>>;

beforeAll(async () => {
  await Promise.all([google.start(), apple.start(), firebase.start()]);
  appleKey = await FakeOidc.appleClientKey('KEY123');
});
afterAll(() => Promise.all([google.stop(), apple.stop(), firebase.stop()]));
beforeEach(() => [google, apple, firebase].forEach((fake) => fake.reset()));

function service(overrides: Partial<AuthConfig> = {}): ProviderLoginService {
  return new ProviderLoginService({
    ...authEnvSchema.parse({}),
    GOOGLE_CLIENT_ID: GOOGLE_CLIENT,
    GOOGLE_CLIENT_SECRET: 'google-secret',
    GOOGLE_TOKEN_URL: google.tokenUrl,
    GOOGLE_JWKS_URL: google.jwksUrl,
    APPLE_SERVICE_ID: APPLE_WEB,
    APPLE_APP_CLIENT_ID: APPLE_APP,
    APPLE_TEAM_ID: 'TEAM123',
    APPLE_KEY_ID: appleKey.keyId,
    APPLE_PRIVATE_KEY: appleKey.privateKeyPem.replace(/\n/g, '\\n'),
    APPLE_REDIRECT_URI: 'https://assistant.example/api/v1/auth/apple/callback',
    APPLE_TOKEN_URL: apple.tokenUrl,
    APPLE_JWKS_URL: apple.jwksUrl,
    FIREBASE_PROJECT_ID: PROJECT,
    FIREBASE_API_KEY: 'api-key',
    FIREBASE_JWKS_URL: firebase.jwksUrl,
    ...overrides,
  });
}

const failed = (provider: string, why: string) => ({ status: 401, detail: `${provider} sign-in failed: ${why}.` });
const unavailable = (provider: string) => ({ status: 502, detail: `${provider} sign-in is unavailable right now. Try again shortly.` });

describe('ProviderLoginService: what the browser is told', () => {
  it('names only the configured providers, with the Firebase auth domain defaulting to the project', () => {
    expect(service().providers()).toEqual({
      google: { client_id: GOOGLE_CLIENT },
      apple: { client_id: APPLE_WEB, redirect_uri: 'https://assistant.example/api/v1/auth/apple/callback', scope: 'name email' },
      firebase: { api_key: 'api-key', auth_domain: `${PROJECT}.firebaseapp.com`, project_id: PROJECT },
    });
    expect(service({ GOOGLE_CLIENT_ID: undefined, APPLE_SERVICE_ID: undefined, FIREBASE_API_KEY: undefined }).providers()).toEqual({
      google: null,
      apple: null,
      firebase: null,
    });
  });
});

describe('ProviderLoginService: Google', () => {
  it('accepts a valid ID token; the email only when Google verified it', async () => {
    const token = await google.signIdToken({ sub: 'g-1', email: 'ada@example.com', name: 'Ada' });
    expect(await service().google({ id_token: token })).toEqual({
      provider: 'google',
      subject: 'g-1',
      email: 'ada@example.com',
      name: 'Ada',
    });
    const unverified = await google.signIdToken({ sub: 'g-1', email: 'ada@example.com', email_verified: false });
    expect((await service().google({ id_token: unverified })).email).toBeNull();
  });

  it('accepts both issuers Google uses, and no other', async () => {
    expect((await service().google({ id_token: await google.signIdToken({ sub: 'g-2', iss: 'accounts.google.com' }) })).subject).toBe(
      'g-2',
    );
    expect(await refusal(service().google({ id_token: await google.signIdToken({ iss: 'https://evil.example' }) }))).toEqual(
      failed('Google', "the token's iss is not right"),
    );
  });

  it.each([
    ['another audience', { wrongAudience: true }, "the token's aud is not right"],
    ['an expired token', { expired: true }, 'the token has expired'],
    ['a key Google does not serve', { unknownKey: true }, 'the token is not signed by the provider'],
    ['an unknown kid', { unknownKey: true, kid: 'gone' }, 'the token is not signed by the provider'],
    ['a tampered payload', { tamper: true as const }, 'the token is not signed by the provider'],
    ['ES256 (Google signs RS256)', { alg: 'ES256' as const }, 'the token uses an algorithm that is not accepted'],
    ['alg none', { algNone: true }, 'the token uses an algorithm that is not accepted'],
  ])('refuses %s', async (_name, options, why) => {
    expect(await refusal(service().google({ id_token: await google.signIdToken({}, options) }))).toEqual(failed('Google', why));
  });

  it('refuses a token without a subject, and one that is not a JWT', async () => {
    expect((await refusal(service().google({ id_token: await google.signIdToken({ sub: undefined }) }))).status).toBe(401);
    expect(await refusal(service().google({ id_token: 'not.a.jwt' }))).toEqual(failed('Google', 'the token is not valid'));
  });

  it('exchanges a code with the client secret and "postmessage" unless a redirect is given', async () => {
    google.scriptCode(
      'code-1',
      { sub: 'g-3' },
      { expectClientId: GOOGLE_CLIENT, expectClientSecret: 'google-secret', expectRedirectUri: 'postmessage' },
    );
    expect((await service().google({ code: 'code-1' })).subject).toBe('g-3');
    google.scriptCode('code-2', { sub: 'g-4' }, { expectRedirectUri: 'https://assistant.example/cb' });
    expect((await service().google({ code: 'code-2', redirect_uri: 'https://assistant.example/cb' })).subject).toBe('g-4');
    expect(google.tokenRequests().map((r) => r.params.grant_type)).toEqual(['authorization_code', 'authorization_code']);
  });

  it('answers 401 for a code Google refuses (unknown or used twice), 502 when Google fails or cannot be reached', async () => {
    const refused = { status: 401, detail: 'Google refused the sign-in code. Please sign in again.' };
    expect(await refusal(service().google({ code: 'never-issued' }))).toEqual(refused);
    google.scriptCode('once', { sub: 'g-5' });
    await service().google({ code: 'once' });
    expect(await refusal(service().google({ code: 'once' }))).toEqual(refused);
    expect(await refusal(service({ GOOGLE_TOKEN_URL: DOWN }).google({ code: 'c' }))).toEqual(unavailable('Google'));
    expect(await refusal(service({ GOOGLE_JWKS_URL: DOWN }).google({ id_token: await google.signIdToken() }))).toEqual(
      unavailable('Google'),
    );
  });

  it('checks the token a code brings like any other', async () => {
    google.scriptCode('bad', { sub: 'g-6' }, { idToken: { expired: true } });
    expect(await refusal(service().google({ code: 'bad' }))).toEqual(failed('Google', 'the token has expired'));
  });

  it('answers 404 when not configured (no client id; a code without a secret), 400 with nothing to check', async () => {
    const notConfigured = { status: 404, detail: 'Google sign-in is not configured.' };
    expect(await refusal(service({ GOOGLE_CLIENT_ID: undefined }).google({ id_token: 'x' }))).toEqual(notConfigured);
    expect(await refusal(service({ GOOGLE_CLIENT_SECRET: undefined }).google({ code: 'c' }))).toEqual(notConfigured);
    expect(await refusal(service().google({}))).toEqual({ status: 400, detail: 'Google sign-in needs an authorization code.' });
  });
});

describe('ProviderLoginService: Apple', () => {
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

  it('accepts a token for the web service id, RS256 or ES256', async () => {
    for (const alg of ['RS256', 'ES256'] as const) {
      const token = await apple.signIdToken({ sub: 'a-1', email: 'ada@privaterelay.appleid.com' }, { alg });
      expect(await service().apple({ id_token: token })).toEqual({
        provider: 'apple',
        subject: 'a-1',
        email: 'ada@privaterelay.appleid.com',
      });
    }
  });

  it('takes the app client id as audience only when asked to', async () => {
    const forApp = await apple.signIdToken({ sub: 'a-2', aud: APPLE_APP });
    expect((await service().apple({ id_token: forApp, use_app_client_id: true })).subject).toBe('a-2');
    expect(await refusal(service().apple({ id_token: forApp }))).toEqual(failed('Apple', "the token's aud is not right"));
    expect(await refusal(service({ APPLE_APP_CLIENT_ID: undefined }).apple({ id_token: forApp, use_app_client_id: true }))).toEqual({
      status: 404,
      detail: 'Sign in with Apple is not configured.',
    });
  });

  it('matches the nonce raw or hashed, and refuses one missing on either side or different', async () => {
    const mismatch = { status: 401, detail: 'Apple sign-in failed: the nonce does not match.' };
    expect((await service().apple({ id_token: await apple.signIdToken({ sub: 'n', nonce: 'n-1' }), nonce: 'n-1' })).subject).toBe('n');
    expect((await service().apple({ id_token: await apple.signIdToken({ sub: 'n', nonce: sha256('n-2') }), nonce: 'n-2' })).subject).toBe(
      'n',
    );
    expect(await refusal(service().apple({ id_token: await apple.signIdToken({ nonce: 'n-3' }) }))).toEqual(mismatch);
    expect(await refusal(service().apple({ id_token: await apple.signIdToken({}), nonce: 'n-4' }))).toEqual(mismatch);
    expect(await refusal(service().apple({ id_token: await apple.signIdToken({ nonce: 'n-5' }), nonce: 'n-6' }))).toEqual(mismatch);
  });

  it('refuses a token of another issuer, or expired', async () => {
    expect(await refusal(service().apple({ id_token: await google.signIdToken({ aud: APPLE_WEB }) }))).toMatchObject({ status: 401 });
    expect(await refusal(service().apple({ id_token: await apple.signIdToken({}, { expired: true }) }))).toEqual(
      failed('Apple', 'the token has expired'),
    );
  });

  it('exchanges a code with an ES256 client secret signed by the team key, and the web redirect', async () => {
    apple.scriptCode('ac-1', { sub: 'a-3' });
    await service().apple({ id_token: await apple.signIdToken({ sub: 'a-3' }), code: 'ac-1' });
    const [request] = apple.tokenRequests();
    expect(request.params.redirect_uri).toBe('https://assistant.example/api/v1/auth/apple/callback');
    expect(request.clientId).toBe(APPLE_WEB);
    const secret = FakeOidc.decodeJwt(request.clientSecret!);
    expect(secret.header).toMatchObject({ alg: 'ES256', kid: 'KEY123' });
    expect(secret.payload).toMatchObject({ iss: 'TEAM123', sub: APPLE_WEB, aud: 'https://appleid.apple.com' });
  });

  it('sends no redirect for the app client', async () => {
    apple.scriptCode('ac-2', { sub: 'a-4' });
    await service().apple({ id_token: await apple.signIdToken({ sub: 'a-4', aud: APPLE_APP }), code: 'ac-2', use_app_client_id: true });
    expect(apple.tokenRequests()[0].params.redirect_uri).toBeUndefined();
  });

  it('refuses a code that belongs to someone else than the ID token', async () => {
    apple.scriptCode('ac-3', { sub: 'mallory' });
    expect(await refusal(service().apple({ id_token: await apple.signIdToken({ sub: 'a-5' }), code: 'ac-3' }))).toEqual({
      status: 401,
      detail: 'Apple sign-in failed: the code belongs to someone else.',
    });
  });

  it('answers 404 for a code when the team key is not configured', async () => {
    expect(await refusal(service({ APPLE_PRIVATE_KEY: undefined }).apple({ id_token: await apple.signIdToken(), code: 'c' }))).toEqual({
      status: 404,
      detail: 'Sign in with Apple is not configured.',
    });
  });
});

describe('ProviderLoginService: Firebase', () => {
  const now = () => Math.floor(Date.now() / 1000);

  it('accepts a token of the project, with the phone number it carries', async () => {
    const token = await firebase.signIdToken({ sub: 'f-1', phone_number: '+15550001111', email: 'ada@example.com', name: 'Ada' });
    expect(await service().firebase({ id_token: token })).toEqual({
      provider: 'firebase',
      subject: 'f-1',
      email: 'ada@example.com',
      name: 'Ada',
      phoneNumber: '+15550001111',
    });
  });

  it('refuses a token of another project', async () => {
    const other = await firebase.signIdToken({ aud: 'other-project' });
    expect(await refusal(service().firebase({ id_token: other }))).toEqual(failed('Firebase', "the token's aud is not right"));
    const otherIssuer = await firebase.signIdToken({ iss: 'https://securetoken.google.com/other-project' });
    expect(await refusal(service().firebase({ id_token: otherIssuer }))).toEqual(failed('Firebase', "the token's iss is not right"));
  });

  it('needs an auth_time that is a number and not in the future (beyond a minute of clock skew)', async () => {
    const noAuthTime = failed('Firebase', 'the token has no valid auth_time');
    for (const authTime of [undefined, 'yesterday', now() + 3600]) {
      expect(await refusal(service().firebase({ id_token: await firebase.signIdToken({ auth_time: authTime }) }))).toEqual(noAuthTime);
    }
    expect((await service().firebase({ id_token: await firebase.signIdToken({ sub: 'f-2', auth_time: now() + 30 }) })).subject).toBe('f-2');
  });

  it('answers 404 when no project is configured', async () => {
    expect(await refusal(service({ FIREBASE_PROJECT_ID: undefined }).firebase({ id_token: 'x' }))).toEqual({
      status: 404,
      detail: 'Firebase sign-in is not configured.',
    });
  });
});
