import { ConfigError, parseConfig, runtimeEnvSchema } from './config';

describe('configuration', () => {
  it('applies defaults for an empty environment (the embedded mode)', () => {
    const env = parseConfig('test', runtimeEnvSchema, {});
    expect(env).toMatchObject({ LOG_LEVEL: 'info', RPC_TIMEOUT_MS: 10_000, DATA_DIR: './.data', DB_POOL_MAX: 10 });
    expect(env.NATS_URL).toBeUndefined();
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it('reads METRICS_PORT (0: any free port; unset: the process decides) and JETSTREAM_REPLICAS (1 to 5, default 1)', () => {
    const defaults = parseConfig('test', runtimeEnvSchema, {});
    expect(defaults.METRICS_PORT).toBeUndefined();
    expect(defaults.JETSTREAM_REPLICAS).toBe(1);
    expect(parseConfig('test', runtimeEnvSchema, { METRICS_PORT: '9464', JETSTREAM_REPLICAS: '3' })).toMatchObject({
      METRICS_PORT: 9464,
      JETSTREAM_REPLICAS: 3,
    });
    expect(parseConfig('test', runtimeEnvSchema, { METRICS_PORT: '0' }).METRICS_PORT).toBe(0);
    for (const bad of [
      { METRICS_PORT: '65536' },
      { METRICS_PORT: '-1' },
      { METRICS_PORT: 'metrics' },
      { JETSTREAM_REPLICAS: '0' },
      { JETSTREAM_REPLICAS: '6' },
      { JETSTREAM_REPLICAS: '2.5' },
    ]) {
      expect(() => parseConfig('test', runtimeEnvSchema, bad)).toThrow(new RegExp(`${Object.keys(bad)[0]}:`));
    }
  });

  it('treats an empty variable as unset', () => {
    expect(parseConfig('test', runtimeEnvSchema, { NATS_URL: '' }).NATS_URL).toBeUndefined();
  });

  it('names every wrong variable in one message', () => {
    let error: unknown;
    try {
      parseConfig('the chat service', runtimeEnvSchema, {
        NATS_URL: 'http://x',
        RPC_TIMEOUT_MS: 'soon',
        DATABASE_URL: 'mysql://x',
        MIGRATE_ON_BOOT: 'maybe',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain('Invalid configuration for the chat service');
    expect(message).toContain('NATS_URL: must be a URL starting with nats://');
    expect(message).toContain('DATABASE_URL: must be a URL starting with postgres://');
    expect(message).toContain('RPC_TIMEOUT_MS:');
    expect(message).toContain('MIGRATE_ON_BOOT: must be true or false');
  });
});
