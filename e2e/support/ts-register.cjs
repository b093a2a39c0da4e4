// Lets `node -r ./e2e/support/ts-register.cjs services/<name>/src/main.ts` run a service from its
// TypeScript sources, with the transform and the workspace aliases Jest uses (jest.config.js), so a
// fault test can SIGKILL a real service process without depending on a build.
const { transformSync } = require('@swc/core');
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
// Jest's own settings, read rather than repeated: the SWC options of its TypeScript transform and its
// moduleNameMapper (`<rootDir>/…` targets with `$1`, as String.replace takes them).
const jestProject = require(path.join(root, 'jest.config.js')).projects[0];
const [, swcOptions] = jestProject.transform['^.+\\.ts$'];
const aliases = Object.entries(jestProject.moduleNameMapper).map(([pattern, target]) => [
  new RegExp(pattern),
  target.replace('<rootDir>/', ''),
]);

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  for (const [pattern, target] of aliases) {
    if (pattern.test(request)) return path.join(root, request.replace(pattern, target));
  }
  return resolveFilename.call(this, request, ...rest);
};

require.extensions['.ts'] = function (module, filename) {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), { filename, ...swcOptions });
  module._compile(code, filename);
};
