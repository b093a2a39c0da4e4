import { MemoryStore, RedisStore, type KeyValueStore } from '../cache/key-value-store';
import type { RuntimeEnv } from '../config/config';
import { AppLogger } from '../logging/logger';
import type { Bus } from '../transport/bus';
import { InProcessBus } from '../transport/in-process-bus';
import { NatsBus } from '../transport/nats-bus';

/** The shared parts a process hands to the services it hosts. */
export interface Runtime {
  env: RuntimeEnv;
  /** The raw environment, for each service's own variables. */
  rawEnv: NodeJS.ProcessEnv;
  bus: Bus;
  kv: KeyValueStore;
  databaseUrl: string;
  logger: AppLogger;
}

export function createLogger(env: RuntimeEnv, service: string, sink?: (line: string) => void): AppLogger {
  const format = env.LOG_FORMAT ?? (process.stdout.isTTY ? 'pretty' : 'json');
  const production = env.NODE_ENV === 'production';
  return new AppLogger({ service, level: env.LOG_LEVEL, format, sink, async: production, redactPersonalData: production });
}

/** NATS when NATS_URL is set, the in-process bus otherwise. */
export async function createBus(env: RuntimeEnv, connectionName: string): Promise<Bus> {
  if (!env.NATS_URL) return new InProcessBus(env.BUS_PREFIX ?? '');
  try {
    return await NatsBus.connect({
      url: env.NATS_URL,
      prefix: env.BUS_PREFIX,
      name: connectionName,
      eventReplicas: env.JETSTREAM_REPLICAS,
      eventRetentionDays: env.EVENT_RETENTION_DAYS,
      eventMaxBytes: env.EVENT_STREAM_MAX_BYTES,
    });
  } catch (error) {
    throw new Error(`Cannot reach NATS at ${env.NATS_URL}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Redis when REDIS_URL is set, memory otherwise. */
export async function createKeyValueStore(env: RuntimeEnv): Promise<KeyValueStore> {
  if (!env.REDIS_URL) return new MemoryStore();
  try {
    return await RedisStore.connect(env.REDIS_URL, env.BUS_PREFIX ?? '');
  } catch (error) {
    throw new Error(`Cannot reach Redis at ${env.REDIS_URL}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
