import { createGateway, drainGateway, gatewayEnvSchema, type Gateway, type GatewayConfig } from '@app/service-gateway';
import {
  createBus,
  createKeyValueStore,
  createLogger,
  envHelpers,
  InProcessBus,
  parseConfig,
  planShutdown,
  runtimeEnvSchema,
  startEmbeddedPostgres,
  startMetricsServer,
  startServiceApp,
  type AppLogger,
  type EmbeddedPostgresHandle,
  type MetricsServer,
  type Runtime,
  type ServiceApp,
  type RuntimeEnv,
  type ServiceDefinition,
  type ShutdownPlan,
} from '@app/platform';
import type { Type } from '@nestjs/common';
import { z } from 'zod';
import { SERVICES } from './services';

/** Variables of the embedded host itself. */
export const embeddedEnvSchema = z.object({
  /** Port of the embedded PostgreSQL; a free one is picked when unset. */
  EMBEDDED_PG_PORT: envHelpers.port.optional(),
});

/**
 * `npm start` runs on the developer's own machine: the development SMS inbox is on unless said
 * otherwise (it still answers only requests from this machine, one number at a time), and never
 * in production. Everywhere else (distributed services, tests) it is off unless DEV_SMS_INBOX is set.
 */
export function embeddedDefaults(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if ((env.DEV_SMS_INBOX ?? '') !== '' || env.NODE_ENV === 'production') return env;
  return { ...env, DEV_SMS_INBOX: 'true' };
}

export interface EmbeddedStack {
  url: string;
  runtime: Runtime;
  services: ServiceApp[];
  gateway: Gateway;
  logger: AppLogger;
  /** Where the data lives: the embedded PostgreSQL, or DATABASE_URL. */
  database: 'embedded' | 'external';
  /** The process's Prometheus metrics (every part's), when METRICS_PORT is set: `http://host:port/metrics`. */
  metricsUrl?: string;
  /**
   * Stops everything: the gateway first (not ready, no new connections, its reply streams finish),
   * then the services (no new requests, the work in flight finishes), then the bus, the cache and
   * the embedded PostgreSQL. `plan` bounds it (SHUTDOWN_GRACE_MS by default); idle, it is immediate.
   */
  close(plan?: ShutdownPlan): Promise<void>;
}

/**
 * Boots the whole product in this process: an embedded PostgreSQL unless DATABASE_URL is set,
 * the in-process bus unless NATS_URL is set, memory unless REDIS_URL is set; then every service
 * (migrations applied) and the gateway.
 */
export interface BootOptions {
  /** Where log lines go (stdout by default). */
  sink?: (line: string) => void;
  /** Services hosted beside the product's own (benchmarks and plumbing tests). */
  extraServices?: ServiceDefinition[];
  extraGatewayModules?: Type<unknown>[];
  /**
   * What the gateway waits for before it starts (and the stack is ready): `npm start` builds the web
   * client meanwhile, so that the build and the boot (PostgreSQL, migrations, services) overlap.
   */
  beforeGateway?: Promise<unknown>;
}

export async function bootEmbedded(rawEnv: NodeJS.ProcessEnv = process.env, options: BootOptions = {}): Promise<EmbeddedStack> {
  const { sink } = options;
  // One schema for the whole process, so that every problem is reported at once.
  const all = parseConfig('the assistant', runtimeEnvSchema.extend(gatewayEnvSchema.shape).extend(embeddedEnvSchema.shape), rawEnv);
  const env: RuntimeEnv = all;
  const gatewayConfig: GatewayConfig = all;
  const own = all;
  const logger = createLogger(env, 'assistant', sink);
  const stack: {
    pg?: EmbeddedPostgresHandle;
    bus?: Runtime['bus'];
    kv?: Runtime['kv'];
    services: ServiceApp[];
    gateway?: Gateway;
    metrics?: MetricsServer;
  } = {
    services: [],
  };
  const close = async (plan: ShutdownPlan = planShutdown(env.SHUTDOWN_GRACE_MS)) => {
    if (stack.gateway) await drainGateway(stack.gateway.app, plan, logger).catch((e: unknown) => logger.error(String(e), 'Shutdown'));
    await Promise.allSettled(stack.services.map((s) => s.drain(plan)));
    await Promise.allSettled(stack.services.map((s) => s.close()));
    await stack.bus?.drain().catch(() => undefined);
    await stack.kv?.close().catch(() => undefined);
    await stack.pg?.stop();
    await stack.metrics?.close();
  };
  try {
    // One endpoint for the whole process, only when asked for: stacks booted side by side (tests)
    // would otherwise fight over a port. On the gateway's interface (HOST), never its public port.
    if (env.METRICS_PORT !== undefined) {
      stack.metrics = await startMetricsServer({ serviceName: 'assistant', port: env.METRICS_PORT, host: gatewayConfig.HOST });
    }
    if (!env.DATABASE_URL) {
      stack.pg = await startEmbeddedPostgres({
        dataDir: env.DATA_DIR,
        port: own.EMBEDDED_PG_PORT,
        log: (line) => logger.log(line, 'Postgres'),
      });
    }
    const databaseUrl = env.DATABASE_URL ?? stack.pg!.url;
    stack.bus = await createBus(env, 'assistant');
    stack.kv = await createKeyValueStore(env);
    const runtime: Runtime = { env, rawEnv, bus: stack.bus, kv: stack.kv, databaseUrl, logger };
    const migrateOnBoot = env.MIGRATE_ON_BOOT ?? true;
    // Every service is waited for, so that when one refuses to start the others that did are
    // known and closed below (with Promise.all they would keep running, pool and timers included).
    const started = await Promise.allSettled(
      [...SERVICES, ...(options.extraServices ?? [])].map((definition) => startServiceApp(definition, runtime, { migrate: migrateOnBoot })),
    );
    stack.services = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const refused = started.find((result) => result.status === 'rejected');
    if (refused) throw refused.reason;
    // Every consumer is registered: the in-process event log may let go of what they all acknowledged.
    if (stack.bus instanceof InProcessBus) stack.bus.consumersRegistered();
    await options.beforeGateway;
    stack.gateway = await createGateway(runtime, gatewayConfig, { extraModules: options.extraGatewayModules });
    return {
      url: stack.gateway.url(),
      runtime,
      services: stack.services,
      gateway: stack.gateway,
      logger,
      database: stack.pg ? 'embedded' : 'external',
      metricsUrl: stack.metrics?.url,
      close,
    };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}
