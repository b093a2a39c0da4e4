#!/usr/bin/env node
// `npm start`: builds what changed, then runs the whole product in this one process. The web
// client's build (when it changed) runs beside the boot: only the gateway waits for it.
import { buildForStart } from './build.mjs';

const { web } = await buildForStart();
// A CommonJS module: its exports are the default export.
const { main, exitOnBootError } = (await import('../deploy/embedded/dist/main.js')).default;
await main({ beforeGateway: web }).catch(exitOnBootError);
