// Lint, with the module boundaries of STYLE.md as errors: services never import each other,
// contracts import no framework, the web client imports contracts only.
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const FRAMEWORKS = ['@nestjs/*', 'typeorm', 'fastify', '@fastify/*', 'pg', '@nats-io/*', 'ioredis', 'react', 'react-dom', 'react-router', 'rxjs'];

// A URL of the API is written once, in its route's declaration (libs/contracts): everything else
// names the route (`API.chat.get`, its `.path`) or the prefix (API_PREFIX), never the text.
const API_URL_MESSAGE = "A URL of the API: use its declared route (API.area.name, or its .path) from '@app/contracts/gateway'.";
const noApiUrls = ['error', ...['Literal[value=/\\/api\\/v1/]', 'TemplateElement[value.raw=/\\/api\\/v1/]'].map((selector) => ({ selector, message: API_URL_MESSAGE }))];

// The platform's fakes (`@app/platform/testing`) are for tests: the boundary rule cannot tell, since
// they are in a library every service may use (libs/testing, which depends on the platform, cannot hold them).
const noPlatformFakes = [
  'error',
  { paths: [{ name: '@app/platform/testing', message: 'A fake for unit tests: import it from a spec only.' }] },
];

const boundaries = (serviceMayUse) => [
  'error',
  {
    enforceBuildableLibDependency: false,
    allowCircularSelfDependency: false,
    banTransitiveDependencies: false,
    depConstraints: [
      { sourceTag: 'scope:contracts', onlyDependOnLibsWithTags: [], bannedExternalImports: FRAMEWORKS },
      { sourceTag: 'scope:platform', onlyDependOnLibsWithTags: ['scope:contracts'] },
      { sourceTag: 'scope:testing', onlyDependOnLibsWithTags: ['scope:contracts', 'scope:platform'] },
      { sourceTag: 'type:service', onlyDependOnLibsWithTags: serviceMayUse },
      { sourceTag: 'type:host', onlyDependOnLibsWithTags: ['type:service', 'scope:contracts', 'scope:platform'] },
      { sourceTag: 'type:web', onlyDependOnLibsWithTags: ['scope:contracts'], bannedExternalImports: ['@nestjs/*', 'typeorm', 'pg', '@nats-io/*', 'ioredis', 'fastify'] },
      { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['*'] },
    ],
  },
];

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', '.data/**', '.nx/**', 'coverage/**', 'deploy/k6/**', 'deploy/docker/**', 'tmp/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': boundaries(['scope:contracts', 'scope:platform']),
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/no-unsafe-function-type': 'off',
      'no-restricted-syntax': noApiUrls,
      'no-restricted-imports': noPlatformFakes,
    },
  },
  {
    // Where the URLs are declared; and the tests, which check the wire against the spec's literal
    // paths (a test that built its URL from the declaration could not see the declaration drift).
    // Tests may also use the platform's fakes.
    files: ['libs/contracts/**', '**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', '**/*.test.ts', '**/*.test.tsx', 'e2e/**', 'web/src/test/**'],
    rules: { 'no-restricted-syntax': 'off', 'no-restricted-imports': 'off' },
  },
  {
    // A service's unit and integration tests (never built) may use libs/testing: the fakes of the
    // outside world, and a throwaway database on the machine's PostgreSQL.
    files: ['services/*/src/**/*.spec.ts', 'services/*/src/**/*.int-spec.ts'],
    rules: { '@nx/enforce-module-boundaries': boundaries(['scope:contracts', 'scope:platform', 'scope:testing']) },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
