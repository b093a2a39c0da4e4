#!/usr/bin/env node
// Runs Jest with the flag Node 24 needs for Jest to load Nest 12's ES modules from CommonJS tests.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const jest = require.resolve('jest/bin/jest');
// In band (2 cores), suites share this process's heap: room beyond V8's default of about 4 GB.
const options = [process.env.NODE_OPTIONS, '--experimental-vm-modules', '--no-warnings=ExperimentalWarning', '--max-old-space-size=8192']
  .filter(Boolean)
  .join(' ');
const result = spawnSync(process.execPath, [jest, ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, NODE_OPTIONS: options },
});
process.exit(result.status ?? 1);
