import { embeddedEnvSchema, SERVICES } from '@app/embedded';
import { PUBLISHED_SECRET_VALUES, publishedSecretsIn, runtimeEnvSchema, SECRET_VARIABLES } from '@app/platform';
import { gatewayEnvSchema } from '@app/service-gateway';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const root = join(__dirname, '../..');

/** The repository's configuration and documentation files: where a development secret gets published. */
function configurationFiles(): string[] {
  const tracked = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  return tracked.filter((path) => {
    const name = basename(path);
    if (name === 'package-lock.json' || path.includes('node_modules/')) return false;
    return /\.(ya?ml|env|md|conf|toml|ini|json)$/.test(name) || name.startsWith('.env') || name.startsWith('Dockerfile');
  });
}

/** Production refuses the values this repository publishes (issue 22.2): the list cannot go stale. */
describe('published secrets', () => {
  it('lists every secret value written in the repository’s configuration and documentation files', () => {
    const files = configurationFiles();
    expect(files).toEqual(
      expect.arrayContaining(['docker-compose.yml', 'deploy/env/.env.example', 'k8s/overlays/dev/kustomization.yaml', 'README.md']),
    );
    const missing = files.flatMap((path) =>
      publishedSecretsIn(readFileSync(join(root, path), 'utf8'))
        .filter((value) => !PUBLISHED_SECRET_VALUES.includes(value))
        .map((value) => `${path}: ${JSON.stringify(value)}`),
    );
    // Add each to PUBLISHED_SECRET_VALUES (libs/platform/src/config/published-secrets.ts).
    expect(missing).toEqual([]);
  });

  it('finds the published defaults the issue named (the compose key, the dev overlay key)', () => {
    const found = ['docker-compose.yml', 'k8s/overlays/dev/kustomization.yaml'].flatMap((path) =>
      publishedSecretsIn(readFileSync(join(root, path), 'utf8')),
    );
    expect(found).toEqual(
      expect.arrayContaining(['CHANGE-ME-dev-only-auth-key-encryption-key0', 'ZGV2LW9ubHktYXV0aC1rZXktZW5jcnlwdGlvbi1rZXk=']),
    );
  });

  it('checks every variable of every process that is named like a secret', () => {
    const variables = new Set([
      ...Object.keys(runtimeEnvSchema.shape),
      ...Object.keys(gatewayEnvSchema.shape),
      ...Object.keys(embeddedEnvSchema.shape),
      ...SERVICES.flatMap((service) => Object.keys(service.config?.shape ?? {})),
    ]);
    const secretLooking = [...variables].filter((name) => /SECRET|_TOKEN$|PASSWORD|PRIVATE_KEY|API_KEY|ENCRYPTION_KEY/.test(name));
    // Firebase's web API key is public by design (the browser receives it).
    const notSecret = ['FIREBASE_API_KEY'];
    expect(secretLooking.filter((name) => !notSecret.includes(name) && !(SECRET_VARIABLES as readonly string[]).includes(name))).toEqual(
      [],
    );
    expect(SECRET_VARIABLES.filter((name) => !variables.has(name))).toEqual([]);
  });
});
