import { parseConfig } from '@app/platform';
import { filesEnvSchema } from './config';

const parse = (env: NodeJS.ProcessEnv) => parseConfig('files', filesEnvSchema, env);

describe('files configuration', () => {
  it('takes files up to 20 MiB when FILES_MAX_BYTES is unset (the README promises it; every other test sets its own)', () => {
    expect(parse({}).FILES_MAX_BYTES).toBe(20 * 1024 * 1024);
    expect(parse({ FILES_MAX_BYTES: '1048576' }).FILES_MAX_BYTES).toBe(1024 * 1024);
  });

  it('keeps signed links short-lived by default', () => {
    expect(parse({}).FILES_SIGNED_URL_TTL_SECONDS).toBe(300);
  });
});
