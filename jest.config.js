// Jest runs the TypeScript sources directly (SWC, with decorator metadata for Nest) and maps the
// workspace packages to their sources, so tests never depend on a stale build.
const transform = {
  '^.+\\.ts$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
        target: 'es2023',
      },
      module: { type: 'commonjs' },
      sourceMaps: 'inline',
    },
  ],
};

const moduleNameMapper = {
  '^@app/contracts$': '<rootDir>/libs/contracts/src/index.ts',
  '^@app/contracts/(.*)$': '<rootDir>/libs/contracts/src/$1/index.ts',
  '^@app/platform$': '<rootDir>/libs/platform/src/index.ts',
  '^@app/platform/telemetry$': '<rootDir>/libs/platform/src/telemetry/telemetry.ts',
  '^@app/platform/testing$': '<rootDir>/libs/platform/src/testing/index.ts',
  '^@app/testing$': '<rootDir>/libs/testing/src/index.ts',
  '^@app/embedded$': '<rootDir>/deploy/embedded/src/index.ts',
  '^@app/service-(.*)$': '<rootDir>/services/$1/src/index.ts',
};

const roots = ['<rootDir>/libs', '<rootDir>/services', '<rootDir>/deploy', '<rootDir>/e2e'];
const common = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform,
  moduleNameMapper,
  roots,
  modulePathIgnorePatterns: ['<rootDir>/.*/dist/'],
};

/** @type {import('jest').Config} */
module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['**/src/**/*.spec.ts'] },
    { ...common, displayName: 'integration', testMatch: ['**/*.int-spec.ts'], slowTestThreshold: 20 },
    { ...common, displayName: 'e2e', testMatch: ['**/*.e2e-spec.ts'], slowTestThreshold: 60 },
  ],
  testTimeout: 30_000,
  // Names whatever a suite left open and ends the run if it would otherwise hang (see the file).
  reporters: ['default', '<rootDir>/scripts/jest-exit-guard.cjs'],
};
