import { createGateway, gatewayEnvSchema, type Gateway, type GatewayConfig } from '@app/service-gateway';
import {
  createBus,
  createKeyValueStore,
  createLogger,
  envHelpers,
  parseConfig,
  runtimeEnvSchema,
  startEmbeddedPostgres,
  startServiceApp,
  type AppLogger,
  type EmbeddedPostgresHandle,
  type Runtime,
  type ServiceApp,
  type RuntimeEnv,
  type ServiceDefinition,
} from '@app/platform';
import type { Type } from '@nestjs/common';
import { z } from 'zod';
import { SERVICES } from './services';

/** Variables of the embedded host itself. */
export const embeddedEnvSchema = z.object({
  /** Port of the embedded PostgreSQL; a free one is picked when unset. */
  EMBEDDED_PG_PORT: envHelpers.port.optional(),
});

export interface EmbeddedStack {
  url: string;
  runtime: Runtime;
  services: ServiceApp[];
  gateway: Gateway;
  logger: AppLogger;
  /** Where the data lives: the embedded PostgreSQL, or DATABASE_URL. */
  database: 'embedded' | 'external';
  close(): Promise<void>;
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
}

export async function bootEmbedded(rawEnv: NodeJS.ProcessEnv = process.env, options: BootOptions = {}): Promise<EmbeddedStack> {
  const { sink } = options;
  // One schema for the whole process, so that every problem is reported at once.
  const all = parseConfig('the assistant', runtimeEnvSchema.extend(gatewayEnvSchema.shape).extend(embeddedEnvSchema.shape), rawEnv);
  const env: RuntimeEnv = all;
  const gatewayConfig: GatewayConfig = all;
  const own = all;
  const logger = createLogger(env, 'assistant', sink);
  const stack: { pg?: EmbeddedPostgresHandle; bus?: Runtime['bus']; kv?: Runtime['kv']; services: ServiceApp[]; gateway?: Gateway } = {
    services: [],
  };
  const close = async () => {
    await stack.gateway?.close().catch((e: unknown) => logger.error(String(e), 'Shutdown'));
    await Promise.allSettled(stack.services.map((s) => s.close()));
    await stack.bus?.drain().catch(() => undefined);
    await stack.kv?.close().catch(() => undefined);
    await stack.pg?.stop();
  };
  try {
    if (!env.DATABASE_URL) {
      stack.pg = await startEmbeddedPostgres({ dataDir: env.DATA_DIR, port: own.EMBEDDED_PG_PORT, log: (line) => logger.log(line, 'Postgres') });
    }
    const databaseUrl = env.DATABASE_URL ?? stack.pg!.url;
    stack.bus = await createBus(env, 'assistant');
    stack.kv = await createKeyValueStore(env);
    const runtime: Runtime = { env, rawEnv, bus: stack.bus, kv: stack.kv, databaseUrl, logger };
    const migrateOnBoot = env.MIGRATE_ON_BOOT ?? true;
    stack.services = await Promise.all([...SERVICES, ...(options.extraServices ?? [])].map((definition) => startServiceApp(definition, runtime, { migrate: migrateOnBoot })));
    stack.gateway = await createGateway(runtime, gatewayConfig, { extraModules: options.extraGatewayModules });
    return {
      url: stack.gateway.url(),
      runtime,
      services: stack.services,
      gateway: stack.gateway,
      logger,
      database: stack.pg ? 'embedded' : 'external',
      close,
    };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}
