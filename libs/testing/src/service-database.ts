import { createServiceDataSource, migrate, PLATFORM_MIGRATIONS } from '@app/platform';
import type { DataSource, MigrationInterface } from 'typeorm';
import { createTestDatabase, type TestDatabase } from './machine';

export interface ServiceDatabaseOptions {
  /** Names the throwaway database (`t_<label>_...`). */
  label: string;
  /** The service's schema (`chat`, `auth`, ...). */
  schema: string;
  /** The service's migrations, oldest first (the platform's run before them). */
  migrations: (new () => MigrationInterface)[];
  entities?: Parameters<typeof createServiceDataSource>[0]['entities'];
  poolMax?: number;
}

export interface ServiceDatabase {
  source: DataSource;
  database: TestDatabase;
  /** Closes the pool and drops the database. */
  drop(): Promise<void>;
}

/**
 * A service's schema on a database of its own on the machine's PostgreSQL, migrated as the service
 * migrates it at boot: the ground for a repository's test against the real database (Immich's
 * "medium" tests), where hand-written SQL is checked as it runs.
 */
export async function serviceDatabase(options: ServiceDatabaseOptions): Promise<ServiceDatabase> {
  const database = await createTestDatabase(options.label);
  const source = createServiceDataSource({
    url: database.url,
    schema: options.schema,
    entities: options.entities ?? [],
    migrations: [...PLATFORM_MIGRATIONS, ...options.migrations],
    poolMax: options.poolMax ?? 6,
    applicationName: `${options.label}-int`,
  });
  try {
    await source.initialize();
    await migrate(source, options.schema);
  } catch (error) {
    if (source.isInitialized) await source.destroy();
    await database.drop();
    throw error;
  }
  return {
    source,
    database,
    drop: async () => {
      if (source.isInitialized) await source.destroy();
      await database.drop();
    },
  };
}
