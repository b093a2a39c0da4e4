import { DataSource, type EntitySchema, type MixedList } from 'typeorm';
import type { MigrationInterface } from 'typeorm';

export interface ServiceDatabaseOptions {
  url: string;
  /** The service's own Postgres schema; no service reads another's. */
  schema: string;
  entities: MixedList<Function | string | EntitySchema>;
  migrations: (new () => MigrationInterface)[];
  poolMax: number;
  /** How long a statement waits for a free connection before it fails (pg-pool's connectionTimeoutMillis). */
  connectTimeoutMs?: number;
  applicationName: string;
}

/** A TypeORM data source confined to one schema (`search_path` and the migrations table included). */
export function createServiceDataSource(options: ServiceDatabaseOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: options.url,
    schema: options.schema,
    entities: options.entities,
    migrations: options.migrations,
    migrationsTableName: 'migrations',
    migrationsRun: false,
    synchronize: false,
    logging: false,
    applicationName: options.applicationName,
    extra: {
      max: options.poolMax,
      // No JIT: the services run short queries, and PostgreSQL compiles one whose estimated cost crosses
      // jit_above_cost (a plan's branch that never runs counts): 30-40 ms of compiling measured for a
      // conversation search whose work took 1 ms (README, Performance).
      options: `-c search_path=${options.schema} -c jit=off`,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    },
  });
}

/**
 * Creates the schema when missing and applies pending migrations, each in its own transaction.
 * A session-level advisory lock per schema lets replicas that start together migrate one at a time.
 */
export async function migrate(dataSource: DataSource, schema: string): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock(hashtext($1))', [`assistant-migrations:${schema}`]);
    try {
      await runner.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return applied.map((m) => m.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [`assistant-migrations:${schema}`]);
    }
  } finally {
    await runner.release();
  }
}
