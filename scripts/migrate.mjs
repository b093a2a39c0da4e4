#!/usr/bin/env node
// `npm run migrate`: applies every service's pending migrations to DATABASE_URL (each service its own
// schema), the way `npm run start:services` and the Kubernetes migration Job do before the services
// start. The embedded mode (`npm start`) migrates by itself at start-up and needs none of this.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from './build.mjs';
import { root } from './lib.mjs';

export const SERVICES = ['auth', 'chat', 'memory', 'files', 'insider-config', 'tts', 'sms'];

export const mainOf = (name) => join(root, `services/${name}/dist/main.js`);

/** Runs `<service> migrate` for each service in turn; answers the exit code of the first that fails, or 0. */
export async function migrateAll() {
  for (const name of SERVICES) {
    const code = await new Promise((resolve) =>
      spawn(process.execPath, [mainOf(name), 'migrate'], { stdio: 'inherit' }).on('exit', resolve),
    );
    if (code !== 0) {
      console.error(`The migrations of the ${name} service failed (code ${code}).`);
      return code ?? 1;
    }
  }
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (!process.env.DATABASE_URL) {
    console.error('`npm run migrate` applies the migrations to DATABASE_URL: set it (the embedded mode migrates by itself).');
    process.exit(1);
  }
  build();
  process.exit(await migrateAll());
}
