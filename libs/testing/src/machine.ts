import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/**
 * The real PostgreSQL, NATS and Redis the tests run against. Defaults are the local servers of
 * the development and CI machines; point elsewhere with TEST_DATABASE_URL, TEST_NATS_URL and
 * TEST_REDIS_URL.
 */
export const machine = {
  databaseUrl: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  natsUrl: process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222',
  redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
};

export type TransportKind = 'in-process' | 'nats';
export const TRANSPORTS: readonly TransportKind[] = ['in-process', 'nats'];

/** A short unique name for one test run: database name, subject prefix, key prefix. */
export function uniqueName(label: string): string {
  return `t_${label.replace(/[^a-z0-9]/g, '').slice(0, 12)}_${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A fresh, empty database on the machine's PostgreSQL, dropped afterwards. */
export async function createTestDatabase(label: string): Promise<TestDatabase> {
  const name = uniqueName(label);
  const admin = new Client({ connectionString: machine.databaseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(machine.databaseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      const client = new Client({ connectionString: machine.databaseUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

export interface TestEnvironment {
  env: NodeJS.ProcessEnv;
  prefix: string;
  database: TestDatabase;
  cleanup(): Promise<void>;
}

/**
 * Environment variables for booting the stack in a test: its own database, its own subject
 * prefix and stream on NATS (when the transport is NATS), Redis with its own key prefix, a free port.
 */
export async function createTestEnvironment(label: string, transport: TransportKind): Promise<TestEnvironment> {
  const database = await createTestDatabase(label);
  const prefix = uniqueName(label);
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
    LOG_FORMAT: 'json',
    DATABASE_URL: database.url,
    BUS_PREFIX: prefix,
    PORT: '0',
    RPC_TIMEOUT_MS: '5000',
    // Memories are extracted by the offline rules even when a suite points the model at a fake, so that
    // a suite's scripted replies and request counts are its own; the memory suite turns the model on.
    MEMORY_EXTRACTOR: 'rules',
    // The API suites' replies stream quickly (the product's default paces the offline model like a hosted one).
    OFFLINE_TOKEN_DELAY_MS: '12',
    ...(transport === 'nats' ? { NATS_URL: machine.natsUrl, REDIS_URL: machine.redisUrl } : {}),
  };
  return {
    env,
    prefix,
    database,
    cleanup: async () => {
      await database.drop();
      if (transport === 'nats') await deleteEventStream(prefix);
    },
  };
}

/** Removes the JetStream stream a test run created. */
export async function deleteEventStream(prefix: string): Promise<void> {
  const { connect } = await import('@nats-io/transport-node');
  const { jetstreamManager } = await import('@nats-io/jetstream');
  const nc = await connect({ servers: machine.natsUrl });
  try {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(`EVENTS_${prefix.toUpperCase()}`).catch(() => undefined);
  } finally {
    await nc.close();
  }
}
