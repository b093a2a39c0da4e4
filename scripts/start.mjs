#!/usr/bin/env node
// `npm start`: builds what changed, then runs the whole product in this one process.
import { build } from './build.mjs';

build();
await import('../deploy/embedded/dist/main.js');
