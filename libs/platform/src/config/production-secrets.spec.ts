import { randomBytes } from 'node:crypto';
import { ConfigError, parseConfig, runtimeEnvSchema } from './config';
import { productionConfigProblems, weakSecretReason } from './production-secrets';
import { publishedSecretsIn } from './published-secrets';

const strong = () => randomBytes(32).toString('base64');
const production = (env: Record<string, string>) => productionConfigProblems({ NODE_ENV: 'production', ...env });

describe('secrets in production (issue 22.2)', () => {
  it.each([
    ['the docker-compose default key', 'ZGV2LW9ubHktYXV0aC1rZXktZW5jcnlwdGlvbi1rZXk=', /published in this repository/],
    ["the k8s dev overlay's key", 'CHANGE-ME-dev-only-auth-key-encryption-key0', /published in this repository/],
    ['an all-zero key', Buffer.alloc(32).toString('base64'), /too little entropy/],
    ['an all-one-byte key', Buffer.alloc(32, 7).toString('base64'), /too little entropy/],
    ['32 times "x"', 'x'.repeat(32), /too little entropy/],
    ['a repeated short pattern', 'abc123'.repeat(6), /too little entropy/],
    ['changeme', 'changeme', /placeholder/],
    ['CHANGE-ME-please', 'CHANGE-ME-please', /placeholder/],
    ['a value saying secret', 'my-super-Secret-value-2026', /placeholder/],
    ['password1', 'password1', /placeholder/],
    ['a short guessable word', 'hunter2', /too little entropy/],
  ])('refuses %s', (_, value, reason) => {
    expect(weakSecretReason(value)).toMatch(reason);
  });

  it.each([
    ['32 random bytes in base64', strong()],
    ['a Twilio auth token (32 hex digits)', randomBytes(16).toString('hex')],
    ['a 40-character S3 secret key', randomBytes(30).toString('base64')],
  ])('accepts %s', (_, value) => {
    expect(weakSecretReason(value)).toBeNull();
  });

  it('checks every secret variable, names each one, and the passwords inside URLs', () => {
    expect(
      production({
        AUTH_KEY_ENCRYPTION_KEY: 'ZGV2LW9ubHktYXV0aC1rZXktZW5jcnlwdGlvbi1rZXk=',
        TWILIO_AUTH_TOKEN: 'changeme',
        FILES_URL_SIGNING_SECRET: 'x'.repeat(32),
        GOOGLE_CLIENT_SECRET: strong(),
        DATABASE_URL: 'postgres://assistant:assistant-dev-only@postgres:5432/assistant',
        REDIS_URL: `redis://:${encodeURIComponent(strong())}@redis:6379`,
      }).map((p) => p.split(':')[0]),
    ).toEqual(['AUTH_KEY_ENCRYPTION_KEY', 'FILES_URL_SIGNING_SECRET', 'TWILIO_AUTH_TOKEN', 'DATABASE_URL']);
  });

  it('wants an https PUBLIC_URL in production', () => {
    expect(production({ PUBLIC_URL: 'http://assistant.example' })).toEqual(['PUBLIC_URL: must be https:// when NODE_ENV is production']);
    expect(production({ PUBLIC_URL: 'https://assistant.example' })).toEqual([]);
  });

  it('checks nothing outside production', () => {
    expect(productionConfigProblems({ NODE_ENV: 'development', TWILIO_AUTH_TOKEN: 'changeme', PUBLIC_URL: 'http://x' })).toEqual([]);
    expect(productionConfigProblems({ TWILIO_AUTH_TOKEN: 'changeme' })).toEqual([]);
  });

  it('is part of parseConfig: every process refuses to start with one message naming the variables', () => {
    let error: unknown;
    try {
      parseConfig('the auth service', runtimeEnvSchema, {
        NODE_ENV: 'production',
        AUTH_KEY_ENCRYPTION_KEY: 'CHANGE-ME-dev-only-auth-key-encryption-key0',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toMatch(
      /Invalid configuration for the auth service:\n {2}- AUTH_KEY_ENCRYPTION_KEY: is a value published/,
    );
    expect(parseConfig('the auth service', runtimeEnvSchema, { NODE_ENV: 'production', AUTH_KEY_ENCRYPTION_KEY: strong() }).NODE_ENV).toBe(
      'production',
    );
  });
});

describe('publishedSecretsIn', () => {
  it('finds compose defaults, env lines, kustomize literals, YAML entries and URL passwords, not substitutions', () => {
    const text = [
      'AUTH_KEY_ENCRYPTION_KEY: ${AUTH_KEY_ENCRYPTION_KEY:-c29tZS1kZWZhdWx0}',
      'S3_SECRET_ACCESS_KEY: ${MINIO_ROOT_PASSWORD:-minio-pass}',
      'POSTGRES_PASSWORD=pg-pass',
      '      - REDIS_PASSWORD=redis-pass',
      '  TWILIO_AUTH_TOKEN: "twilio-token"',
      '  DATABASE_URL: postgres://user:url-pass@db:5432/x',
      'MC_HOST_local: http://${MINIO_ROOT_USER:-assistant}:${MINIO_ROOT_PASSWORD:-minio-pass}@minio:9000',
      'GOOGLE_CLIENT_SECRET=',
      'OPENAI_API_KEY: ${OPENAI_API_KEY:-}',
      'AUTH_TOKEN_TTL_SECONDS=600',
    ].join('\n');
    expect(publishedSecretsIn(text).sort()).toEqual(
      ['c29tZS1kZWZhdWx0', 'minio-pass', 'pg-pass', 'redis-pass', 'twilio-token', 'url-pass'].sort(),
    );
  });
});
