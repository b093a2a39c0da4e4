import { z } from 'zod';
import { productionConfigProblems } from './production-secrets';

export class ConfigError extends Error {
  constructor(
    readonly component: string,
    readonly problems: string[],
  ) {
    super(`Invalid configuration for ${component}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses the environment against a schema; every problem is named with its variable. In
 * production the secrets of every process are checked here too (`productionConfigProblems`):
 * every service, the gateway and the embedded host parse their environment through this.
 */
export function parseConfig<S extends z.ZodType>(component: string, schema: S, env: NodeJS.ProcessEnv = process.env): z.output<S> {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = schema.safeParse(cleaned);
  const problems = result.success
    ? []
    : result.error.issues.map((issue) => {
        const name = issue.path.map(String).join('.') || '(environment)';
        return `${name}: ${issue.message}`;
      });
  problems.push(...productionConfigProblems(cleaned));
  if (result.success && problems.length === 0) return result.data;
  throw new ConfigError(component, problems);
}

/** For `main.ts`: prints a configuration problem plainly and exits, instead of a stack trace. */
export function parseConfigOrExit<S extends z.ZodType>(component: string, schema: S, env = process.env): z.output<S> {
  try {
    return parseConfig(component, schema, env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\nSee the .env.example files for every variable.\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
}

const urlWithProtocols = (protocols: string[]) =>
  z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol.replace(/:$/, ''));
      } catch {
        return false;
      }
    },
    { message: `must be a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}` },
  );

const port = z.coerce.number().int().min(1).max(65535);
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** Variables every process understands (services, gateway, embedded host). */
export const runtimeEnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['error', 'warn', 'info', 'debug']).default('info'),
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  /** NATS with JetStream; unset means the in-process transport (embedded mode only). */
  NATS_URL: urlWithProtocols(['nats', 'tls', 'ws', 'wss']).optional(),
  /** Prefix of every subject and of the event stream: lets several deployments share one NATS. */
  BUS_PREFIX: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,30}$/, 'must be lower-case letters, digits or _ (at most 31)')
    .optional(),
  RPC_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(10_000),
  /** Calls in a row a service leaves unanswered in time (timeouts) before its callers stop waiting on it (its circuit opens). */
  RPC_BREAKER_FAILURES: z.coerce.number().int().min(1).max(100).default(3),
  /** How long an open circuit refuses calls at once (503 with Retry-After) before one probe call is let through. */
  RPC_BREAKER_OPEN_MS: z.coerce.number().int().min(100).max(300_000).default(5_000),
  /** PostgreSQL; unset means the embedded PostgreSQL (embedded mode only). */
  DATABASE_URL: urlWithProtocols(['postgres', 'postgresql']).optional(),
  /** Connections each service's pool opens at most (every replica of every service: mind max_connections). */
  DB_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  /**
   * How long a statement waits for a pool connection before it fails ("timeout exceeded when trying
   * to connect"). Bursts of reply writes do not meet it: they queue on their own, a few at a time.
   */
  DB_POOL_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5_000),
  /** Redis; unset means an in-memory cache (embedded mode only). */
  REDIS_URL: urlWithProtocols(['redis', 'rediss']).optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: urlWithProtocols(['http', 'https']).optional(),
  DATA_DIR: z.string().default('./.data'),
  /** Runs migrations when the process starts (always on in the embedded mode). */
  MIGRATE_ON_BOOT: bool.optional(),
  /** Port of the small /healthz and /readyz server of a standalone service (for probes). */
  HEALTH_PORT: port.optional(),
  /**
   * Prometheus metrics at /metrics on a port of their own (0: any free port). Each process of the
   * distributed mode serves them on 9464 when unset; the embedded mode only when set.
   */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /**
   * How long the event stream keeps an event (its max_age); the services keep the ids of the events
   * they applied this long plus the stream's duplicate window, then forget them (nothing older can be
   * delivered again).
   */
  EVENT_RETENTION_DAYS: z.coerce.number().int().min(1).max(365).default(7),
  /** The event stream's size limit (max_bytes): when full, publishing waits (the outboxes keep the events) rather than dropping any. */
  EVENT_STREAM_MAX_BYTES: z.coerce.number().int().min(1_048_576).default(1_073_741_824),
  /** Replicas of the JetStream event stream when a process creates it (an existing stream keeps its own). */
  JETSTREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  /**
   * On SIGTERM/SIGINT: the longest a process takes to stop (finishing the work in flight, reply
   * streams included, then draining the bus). An upper bound, not a wait: an idle process stops at
   * once. Match Kubernetes' terminationGracePeriodSeconds.
   */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
  /** A service sends a heartbeat this often on each open reply stream. */
  STREAM_HEARTBEAT_MS: z.coerce.number().int().min(100).max(30_000).default(1_000),
  /** Heartbeats a caller lets go missing before it takes the stream's producer for dead. */
  STREAM_HEARTBEAT_MISSES: z.coerce.number().int().min(2).max(20).default(3),
});
export type RuntimeEnv = z.output<typeof runtimeEnvSchema>;

export const envHelpers = { port, bool, urlWithProtocols };
