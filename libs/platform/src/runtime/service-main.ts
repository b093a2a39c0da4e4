import { parseConfigOrExit, runtimeEnvSchema } from '../config/config';
import { startHealthServer } from '../health/health';
import type { TelemetryHandle } from '../telemetry/telemetry';
import { createBus, createKeyValueStore, createLogger, type Runtime } from './runtime';
import { migrateService, startServiceApp } from './service-app';
import type { ServiceDefinition } from './service-definition';
import { exitOnSignals } from './shutdown';

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
  const bus = await createBus(env, `assistant-${definition.name}`);
  const kv = await createKeyValueStore(env);
  const runtime: Runtime = { env, rawEnv: process.env, bus, kv, databaseUrl: env.DATABASE_URL, logger };
  const service = await startServiceApp(definition, runtime, { migrate: env.MIGRATE_ON_BOOT ?? false });
  const healthServer = env.HEALTH_PORT ? await startHealthServer(env.HEALTH_PORT, () => service.health()) : undefined;
  logger.log(`Serving ${definition.name}.* on ${bus.kind}${env.HEALTH_PORT ? `, probes on :${env.HEALTH_PORT}` : ''}`, 'Boot');
  exitOnSignals(async () => {
    await new Promise<void>((resolve) => (healthServer ? healthServer.close(() => resolve()) : resolve()));
    await service.close();
    await bus.drain();
    await kv.close();
    await telemetry.shutdown();
  }, logger);
}
