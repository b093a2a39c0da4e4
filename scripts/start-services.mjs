#!/usr/bin/env node
// `npm run start:services`: the distributed mode on one machine: every service and the gateway as
// its own process, talking over NATS_URL to DATABASE_URL (and REDIS_URL if set). Ctrl-C stops all.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { build } from './build.mjs';
import { root } from './lib.mjs';

const SERVICES = ['auth', 'chat', 'memory', 'files', 'insider-config', 'tts', 'sms'];

if (!process.env.NATS_URL || !process.env.DATABASE_URL) {
  console.error('The distributed mode needs NATS_URL and DATABASE_URL (and REDIS_URL for a shared cache).');
  console.error('Example: NATS_URL=nats://127.0.0.1:4222 DATABASE_URL=postgres://postgres@127.0.0.1:5432/assistant npm run start:services');
  process.exit(1);
}
build();
const children = [];
const start = (name, args, env) => {
  const child = spawn(process.execPath, [join(root, `services/${name}/dist/main.js`), ...args], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  children.push(child);
  return child;
};
// Migrations first, each service its own schema, then the services and the gateway.
for (const name of SERVICES) {
  const code = await new Promise((resolve) => start(name, ['migrate'], {}).on('exit', resolve));
  if (code !== 0) process.exit(code ?? 1);
}
children.length = 0;
SERVICES.forEach((name, i) => start(name, [], { HEALTH_PORT: String(9100 + i) }));
start('gateway', [], {});
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) {
  child.on('exit', (code) => {
    if (!stopping && code !== 0) {
      console.error(`A process exited with code ${code}; stopping the others.`);
      stop();
    }
  });
}
