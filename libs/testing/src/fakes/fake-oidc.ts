import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  exportPKCS8,
  generateKeyPair,
  SignJWT,
  type CryptoKey,
  type JWK,
  type JWTPayload,
} from 'jose';
import { basicCredentials, formFields, LocalHttpServer, sendJson } from './http-server';

export type OidcAlg = 'RS256' | 'ES256';

export interface FakeOidcOptions {
  /** Where the public keys are served (Google `/oauth2/v3/certs`, Apple `/auth/keys`). */
  jwksPath?: string;
  /** The code exchange (Google `/token`, Apple `/auth/token`). */
  tokenPath?: string;
  /** Redirects at once to `redirect_uri` with the next scripted code. */
  authorizePath?: string;
  userinfoPath?: string;
  /** The `iss` of the tokens; the fake's own URL when unset. */
  issuer?: string;
  /** The `aud` of tokens whose claims (or code exchange) name none. */
  audience?: string;
  /** The algorithm of signed tokens unless `signIdToken` says otherwise. */
  alg?: OidcAlg;
  /** Claims every token carries unless overridden (a preset's own, like Firebase's). */
  defaultClaims?: (claims: Record<string, unknown>) => Record<string, unknown>;
}

export interface SignIdTokenOptions {
  alg?: OidcAlg;
  /** Signed by a key the JWKS does not serve (the header still names a served key's `kid`, unless `kid` is given). */
  unknownKey?: boolean;
  /** The header's `kid`, whatever key signs. */
  kid?: string;
  /** Unsigned: header `{alg: "none"}` and an empty signature. */
  algNone?: boolean;
  /** Issued two hours ago, expired one hour ago. */
  expired?: boolean;
  /** For another client (`aud` of someone else). */
  wrongAudience?: boolean;
  /** The payload is changed after signing (by default the email becomes an attacker's), so the signature no longer matches. */
  tamper?: true | Record<string, unknown>;
  /** Lifetime; one hour by default. */
  expiresInSeconds?: number;
}

export interface ScriptedCodeOptions {
  /** The exchange fails (invalid_grant) unless `redirect_uri` is exactly this. */
  expectRedirectUri?: string;
  /** The exchange fails (invalid_client) unless `client_id` is this. */
  expectClientId?: string;
  /** The exchange fails (invalid_client) unless the client secret is this, or passes this check (e.g. Apple's ES256 JWT). */
  expectClientSecret?: string | ((clientSecret: string) => boolean | Promise<boolean>);
  /** How the id token answered for this code is signed (to script a bad one). */
  idToken?: SignIdTokenOptions;
}

export interface FakeOidcTokenRequest {
  params: Record<string, string>;
  /** From the form, or from HTTP Basic. */
  clientId: string | undefined;
  clientSecret: string | undefined;
  /** Whether the client authenticated with HTTP Basic rather than form fields. */
  basicAuth: boolean;
  status: number;
  error?: string;
}

export interface DecodedJwt {
  header: Record<string, unknown>;
  payload: JWTPayload & Record<string, unknown>;
}

interface SigningKey {
  kid: string;
  alg: OidcAlg;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

interface ScriptedCode {
  claims: Record<string, unknown>;
  options: ScriptedCodeOptions;
  issued: boolean;
  used: boolean;
  nonce?: string;
  codeChallenge?: { value: string; method: string };
}

const HOUR = 3600;

function base64url(value: string | Buffer): string {
  return Buffer.from(value).toString('base64url');
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

/**
 * A small OpenID Connect issuer with its own keys, usable as Google, Apple or Firebase: a JWKS,
 * signed ID tokens (and deliberately bad ones), a code exchange for scripted codes, Google's
 * userinfo and an authorization endpoint that redirects at once with the next scripted code.
 */
export class FakeOidc {
  private readonly options: Required<Omit<FakeOidcOptions, 'issuer' | 'audience' | 'defaultClaims'>> &
    Pick<FakeOidcOptions, 'issuer' | 'audience' | 'defaultClaims'>;
  private readonly server = new LocalHttpServer((request, response, body) => this.handle(request, response, body));
  private keys: Promise<{ served: Record<OidcAlg, SigningKey>; unknown: Record<OidcAlg, SigningKey> }> | undefined;
  private readonly codes = new Map<string, ScriptedCode>();
  private readonly accessTokens = new Map<string, Record<string, unknown>>();
  private readonly tokenLog: FakeOidcTokenRequest[] = [];
  private readonly authorizeLog: Record<string, string>[] = [];
  private jwksFetches = 0;

  constructor(options: FakeOidcOptions = {}) {
    this.options = {
      jwksPath: '/jwks',
      tokenPath: '/token',
      authorizePath: '/o/oauth2/v2/auth',
      userinfoPath: '/oauth2/v3/userinfo',
      alg: 'RS256',
      ...options,
    };
  }

  /** Google: `https://accounts.google.com`, JWKS at `/oauth2/v3/certs`, code exchange at `/token`. */
  static google(options: FakeOidcOptions = {}): FakeOidc {
    return new FakeOidc({ jwksPath: '/oauth2/v3/certs', tokenPath: '/token', issuer: 'https://accounts.google.com', ...options });
  }

  /** Apple: `https://appleid.apple.com`, JWKS at `/auth/keys`, code exchange at `/auth/token`. */
  static apple(options: FakeOidcOptions = {}): FakeOidc {
    return new FakeOidc({
      jwksPath: '/auth/keys',
      tokenPath: '/auth/token',
      authorizePath: '/auth/authorize',
      issuer: 'https://appleid.apple.com',
      ...options,
    });
  }

  /** Firebase Authentication: tokens of `https://securetoken.google.com/<project>` for audience `<project>`. */
  static firebase(projectId: string, options: FakeOidcOptions = {}): FakeOidc {
    return new FakeOidc({
      jwksPath: '/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com',
      tokenPath: '/token',
      issuer: `https://securetoken.google.com/${projectId}`,
      audience: projectId,
      defaultClaims: (claims) => ({
        auth_time: claims.iat,
        user_id: claims.sub,
        firebase: { identities: { email: [claims.email] }, sign_in_provider: 'password' },
      }),
      ...options,
    });
  }

  /** An ES256 key like the .p8 Apple gives a developer, to sign Apple's `client_secret` JWT with. */
  static async appleClientKey(
    keyId = randomBytes(5).toString('hex').toUpperCase(),
  ): Promise<{ keyId: string; privateKeyPem: string; privateKey: CryptoKey; publicKey: CryptoKey }> {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    return { keyId, privateKeyPem: await exportPKCS8(privateKey), privateKey, publicKey };
  }

  /** A JWT's header and payload, unverified (to inspect what a client sent, like Apple's client secret). */
  static decodeJwt(token: string): DecodedJwt {
    return { header: decodeProtectedHeader(token) as Record<string, unknown>, payload: decodeJwt(token) as DecodedJwt['payload'] };
  }

  get url(): string {
    return this.server.url;
  }
  get issuer(): string {
    return this.options.issuer ?? this.url;
  }
  get jwksUrl(): string {
    return this.url + this.options.jwksPath;
  }
  get tokenUrl(): string {
    return this.url + this.options.tokenPath;
  }
  get authorizeUrl(): string {
    return this.url + this.options.authorizePath;
  }
  get userinfoUrl(): string {
    return this.url + this.options.userinfoPath;
  }

  async start(): Promise<{ url: string }> {
    await this.signingKeys();
    return this.server.start();
  }

  stop(): Promise<void> {
    return this.server.stop();
  }

  /** The public keys served (one RS256, one ES256). */
  async jwks(): Promise<{ keys: JWK[] }> {
    const { served } = await this.signingKeys();
    return { keys: [served.RS256.publicJwk, served.ES256.publicJwk] };
  }

  /**
   * An ID token. Defaults: `iss` of the issuer, `aud` the configured audience, a `sub`, `email`,
   * `email_verified: true`, `iat` now and `exp` in an hour; `claims` override them.
   */
  async signIdToken(claims: Record<string, unknown> = {}, options: SignIdTokenOptions = {}): Promise<string> {
    const keys = await this.signingKeys();
    const now = Math.floor(Date.now() / 1000);
    const base: Record<string, unknown> = {
      iss: this.issuer,
      aud: this.options.audience,
      sub: `1${randomInt(10 ** 9, 10 ** 10 - 1)}${randomInt(10 ** 9, 10 ** 10 - 1)}`,
      email: 'fake.user@example.com',
      email_verified: true,
      iat: now,
      exp: now + (options.expiresInSeconds ?? HOUR),
    };
    let payload: Record<string, unknown> = { ...base, ...claims };
    payload = { ...payload, ...this.options.defaultClaims?.(payload), ...claims };
    if (options.expired) payload = { ...payload, iat: now - 2 * HOUR, exp: now - HOUR };
    if (options.wrongAudience) payload = { ...payload, aud: 'another-client.example.com' };
    if (payload.aud === undefined) throw new Error('FakeOidc.signIdToken: no audience (pass claims.aud or the `audience` option)');

    const alg = options.alg ?? this.options.alg;
    const key = (options.unknownKey ? keys.unknown : keys.served)[alg];
    const kid = options.kid ?? keys.served[alg].kid;
    let token: string;
    if (options.algNone) {
      token = `${base64url(JSON.stringify({ alg: 'none', typ: 'JWT', kid }))}.${base64url(JSON.stringify(payload))}.`;
    } else {
      token = await new SignJWT(payload).setProtectedHeader({ alg, typ: 'JWT', kid }).sign(key.privateKey);
    }
    if (options.tamper) {
      const changes = options.tamper === true ? { email: 'attacker@example.com', email_verified: true } : options.tamper;
      const [header, , signature] = token.split('.');
      token = `${header}.${base64url(JSON.stringify({ ...payload, ...changes }))}.${signature}`;
    }
    return token;
  }

  /**
   * A code the token endpoint exchanges (once) for an access token and an ID token with these
   * claims; the authorization endpoint hands codes out in the order they were scripted.
   */
  scriptCode(code: string, claims: Record<string, unknown> = {}, options: ScriptedCodeOptions = {}): void {
    this.codes.set(code, { claims, options, issued: false, used: false });
  }

  /** The code exchanges received, oldest first. */
  tokenRequests(): FakeOidcTokenRequest[] {
    return [...this.tokenLog];
  }

  /** The query of each authorization request received, oldest first. */
  authorizationRequests(): Record<string, string>[] {
    return [...this.authorizeLog];
  }

  /** How many times the JWKS was fetched (to check a client caches it). */
  jwksRequests(): number {
    return this.jwksFetches;
  }

  /** Forgets scripted codes, issued access tokens and recorded requests (the keys stay). */
  reset(): void {
    this.codes.clear();
    this.accessTokens.clear();
    this.tokenLog.length = 0;
    this.authorizeLog.length = 0;
    this.jwksFetches = 0;
  }

  private signingKeys() {
    this.keys ??= (async () => {
      const make = async (alg: OidcAlg): Promise<SigningKey> => {
        const { privateKey, publicKey } = await generateKeyPair(alg);
        const kid = randomBytes(20).toString('hex');
        return { kid, alg, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
      };
      const [rs, es, unknownRs, unknownEs] = await Promise.all([make('RS256'), make('ES256'), make('RS256'), make('ES256')]);
      return { served: { RS256: rs, ES256: es }, unknown: { RS256: unknownRs, ES256: unknownEs } };
    })();
    return this.keys;
  }

  private async handle(request: IncomingMessage, response: ServerResponse, body: string): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://fake');
    const route = `${request.method} ${url.pathname}`;
    const { jwksPath, tokenPath, authorizePath, userinfoPath } = this.options;
    if (route === `GET ${jwksPath}`) {
      this.jwksFetches++;
      return sendJson(response, 200, await this.jwks(), { 'cache-control': 'public, max-age=21600' });
    }
    if (route === 'GET /.well-known/openid-configuration') return sendJson(response, 200, this.discovery());
    if (route === `POST ${tokenPath}`) return this.exchange(request, response, body);
    if (route === `GET ${authorizePath}`) return this.authorize(url, response);
    if (route === `GET ${userinfoPath}`) return this.userinfo(request, response);
    sendJson(response, 404, { error: 'not_found' });
  }

  private discovery() {
    return {
      issuer: this.issuer,
      authorization_endpoint: this.authorizeUrl,
      token_endpoint: this.tokenUrl,
      userinfo_endpoint: this.userinfoUrl,
      jwks_uri: this.jwksUrl,
      response_types_supported: ['code'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256', 'ES256'],
    };
  }

  private authorize(url: URL, response: ServerResponse): void {
    const query = Object.fromEntries(url.searchParams);
    this.authorizeLog.push(query);
    if (!query.redirect_uri) {
      response.writeHead(400, { 'content-type': 'text/plain' });
      response.end('invalid_request: Missing required parameter: redirect_uri');
      return;
    }
    const target = new URL(query.redirect_uri);
    const next = [...this.codes.entries()].find(([, scripted]) => !scripted.issued);
    if (next) {
      const [code, scripted] = next;
      scripted.issued = true;
      scripted.nonce = query.nonce;
      if (query.code_challenge) scripted.codeChallenge = { value: query.code_challenge, method: query.code_challenge_method ?? 'plain' };
      target.searchParams.set('code', code);
    } else {
      target.searchParams.set('error', 'access_denied');
    }
    if (query.state !== undefined) target.searchParams.set('state', query.state);
    response.writeHead(302, { location: target.toString() });
    response.end();
  }

  private async exchange(request: IncomingMessage, response: ServerResponse, body: string): Promise<void> {
    const params = formFields(body);
    const basic = basicCredentials(request);
    const entry: FakeOidcTokenRequest = {
      params,
      clientId: params.client_id ?? (basic ? safeDecode(basic.user) : undefined),
      clientSecret: params.client_secret ?? (basic ? safeDecode(basic.password) : undefined),
      basicAuth: basic !== null,
      status: 200,
    };
    this.tokenLog.push(entry);
    const fail = (error: string, description: string) => {
      entry.status = 400;
      entry.error = error;
      sendJson(response, 400, { error, error_description: description });
    };
    if (params.grant_type !== 'authorization_code')
      return fail('unsupported_grant_type', `Unsupported grant type: ${params.grant_type ?? '(none)'}`);
    const scripted = params.code ? this.codes.get(params.code) : undefined;
    if (!scripted || scripted.used) return fail('invalid_grant', 'Malformed auth code.');
    const { expectClientId, expectClientSecret, expectRedirectUri } = scripted.options;
    if (expectClientId !== undefined && entry.clientId !== expectClientId) return fail('invalid_client', 'The OAuth client was not found.');
    if (expectClientSecret !== undefined) {
      const secret = entry.clientSecret ?? '';
      const ok = typeof expectClientSecret === 'string' ? secret === expectClientSecret : await expectClientSecret(secret);
      if (!ok) return fail('invalid_client', 'Unauthorized');
    }
    if (expectRedirectUri !== undefined && params.redirect_uri !== expectRedirectUri) return fail('invalid_grant', 'Bad Request');
    if (scripted.codeChallenge) {
      const verifier = params.code_verifier ?? '';
      const expected = scripted.codeChallenge.method === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
      if (expected !== scripted.codeChallenge.value) return fail('invalid_grant', 'Invalid code verifier.');
    }
    scripted.used = true;
    const claims = {
      ...(entry.clientId ? { aud: entry.clientId } : {}),
      ...(scripted.nonce ? { nonce: scripted.nonce } : {}),
      ...scripted.claims,
    };
    const idToken = await this.signIdToken(claims, scripted.options.idToken);
    const accessToken = `ya29.${randomBytes(24).toString('base64url')}`;
    this.accessTokens.set(accessToken, FakeOidc.decodeJwt(idToken).payload);
    sendJson(
      response,
      200,
      {
        access_token: accessToken,
        id_token: idToken,
        token_type: 'Bearer',
        expires_in: 3599,
        scope: params.scope ?? 'openid email profile',
      },
      { 'cache-control': 'no-store', pragma: 'no-cache' },
    );
  }

  private userinfo(request: IncomingMessage, response: ServerResponse): void {
    const token = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const claims = token ? this.accessTokens.get(token) : undefined;
    if (!claims) {
      return sendJson(
        response,
        401,
        { error: 'invalid_request', error_description: 'Invalid Credentials' },
        { 'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"' },
      );
    }
    const { iss: _iss, aud: _aud, iat: _iat, exp: _exp, nonce: _nonce, azp: _azp, at_hash: _atHash, ...profile } = claims;
    sendJson(response, 200, profile);
  }
}
