import { parseConfigOrExit, runtimeEnvSchema, type RuntimeEnv } from '../config/config';
import { closeHealthServer, startHealthServer } from '../health/health';
import type { AppLogger } from '../logging/logger';
import { serveProcessMetrics } from '../telemetry/metrics-server';
import type { TelemetryHandle } from '../telemetry/telemetry';
import { createBus, createKeyValueStore, createLogger, type Runtime } from './runtime';
import { migrateService, startServiceApp } from './service-app';
import type { ServiceDefinition } from './service-definition';
import { exitOnSignals, type ShutdownPlan } from './shutdown';

/**
 * The `main` of a service in its own process (distributed mode). `node main.js migrate` applies
 * the service's migrations and exits (the Kubernetes migration Job runs exactly that).
 */
export async function runServiceMain(definition: ServiceDefinition, telemetry: TelemetryHandle): Promise<void> {
  const env = parseConfigOrExit(`the ${definition.name} service`, runtimeEnvSchema);
  const logger = createLogger(env, definition.name);
  if (!env.DATABASE_URL || (!env.NATS_URL && process.argv[2] !== 'migrate')) {
    process.stderr.write(
      `The ${definition.name} service on its own needs NATS_URL and DATABASE_URL.\n` +
        'To run everything in one process without them, use `npm start`.\n',
    );
    process.exit(78);
  }
  if (process.argv[2] === 'migrate') {
    const applied = await migrateService(definition, { env, databaseUrl: env.DATABASE_URL });
    logger.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Nothing to apply', 'Migrations');
    await telemetry.shutdown();
    return;
  }
  const databaseUrl = env.DATABASE_URL;
  await serveProcess(`assistant-${definition.name}`, { env, logger, telemetry }, async (shared) => {
    const service = await startServiceApp(definition, { ...shared, databaseUrl }, { migrate: env.MIGRATE_ON_BOOT ?? false });
    const healthServer = env.HEALTH_PORT ? await startHealthServer(env.HEALTH_PORT, () => service.health()) : undefined;
    return {
      serving: `Serving ${definition.name}.* on ${shared.bus.kind}${env.HEALTH_PORT ? `, probes on :${env.HEALTH_PORT}` : ''}`,
      drain: async (plan) => {
        // Not ready from now on (the probe says so while the work in flight finishes), no new requests.
        await service.drain(plan);
        await closeHealthServer(healthServer);
        await service.close();
      },
    };
  });
}

/** What a process started by `serveProcess` runs: where it serves, and how it stops taking and finishes its work. */
export interface ServedApp {
  /** Said at boot, before the metrics port. */
  serving: string;
  drain(plan: ShutdownPlan): Promise<unknown>;
}

/**
 * A process of its own (a service or the gateway): Prometheus metrics on a port of their own (9464
 * unless METRICS_PORT, never a public one), the bus and the key-value store opened for `start`, and on
 * SIGTERM or SIGINT the app drained first, then the bus, the store, and last the metrics (Prometheus
 * may scrape while the process drains) and telemetry.
 */
export async function serveProcess(
  processName: string,
  { env, logger, telemetry }: { env: RuntimeEnv; logger: AppLogger; telemetry: TelemetryHandle },
  start: (shared: Omit<Runtime, 'databaseUrl'>) => Promise<ServedApp>,
): Promise<void> {
  const metrics = await serveProcessMetrics(processName, env.METRICS_PORT);
  const bus = await createBus(env, processName);
  const kv = await createKeyValueStore(env);
  const app = await start({ env, rawEnv: process.env, bus, kv, logger });
  logger.log(`${app.serving}, metrics on :${metrics.port}`, 'Boot');
  exitOnSignals(
    async (plan) => {
      await app.drain(plan);
      await bus.drain();
      await kv.close();
      await metrics.close();
      await telemetry.shutdown();
    },
    logger,
    env.SHUTDOWN_GRACE_MS,
  );
}
