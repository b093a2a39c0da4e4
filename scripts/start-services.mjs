#!/usr/bin/env node
// `npm run start:services`: the distributed mode on one machine: every service and the gateway as
// its own process, talking over NATS_URL to DATABASE_URL (and REDIS_URL if set). A process that
// exits is restarted with a back-off (1 s, doubling up to 30 s) and the launcher says so; only a
// Ctrl-C or a SIGTERM of the launcher stops them all, each finishing its work in flight first.
import { build } from './build.mjs';
import { mainOf, migrateAll, SERVICES } from './migrate.mjs';
import { Supervisor, superviseUntilSignalled } from './supervisor.mjs';

if (!process.env.NATS_URL || !process.env.DATABASE_URL) {
  console.error('The distributed mode needs NATS_URL and DATABASE_URL (and REDIS_URL for a shared cache).');
  console.error('Example: NATS_URL=nats://127.0.0.1:4222 DATABASE_URL=postgres://postgres@127.0.0.1:5432/assistant npm run start:services');
  process.exit(1);
}
build();

// Migrations first, each service its own schema.
const migrated = await migrateAll();
if (migrated !== 0) {
  console.error('Nothing was started.');
  process.exit(migrated);
}

// Then the services and the gateway, kept running. A process gets its grace period to stop
// (SHUTDOWN_GRACE_MS, 30 s by default), and a few seconds more before it is killed.
const graceMs = Number(process.env.SHUTDOWN_GRACE_MS) || 30_000;
const supervisor = new Supervisor({ killAfterMs: graceMs + 5_000 });
// One machine, so a port each: probes on 9100-9106, metrics on 9465-9471 (the gateway's on 9464).
SERVICES.forEach((name, i) =>
  supervisor.add(name, process.execPath, [mainOf(name)], { HEALTH_PORT: String(9100 + i), METRICS_PORT: String(9465 + i) }),
);
supervisor.add('gateway', process.execPath, [mainOf('gateway')], { METRICS_PORT: '9464' });
superviseUntilSignalled(supervisor);
