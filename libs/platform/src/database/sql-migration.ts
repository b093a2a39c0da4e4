import type { MigrationInterface, QueryRunner } from 'typeorm';

/** What a migration class is to TypeORM (`migrations:` of a data source, a service's list). */
export type MigrationClass = new () => MigrationInterface;

/** The statements a migration runs each way, in order. */
export interface SqlMigrationSteps {
  up: readonly string[];
  /** Undoes `up` (usually in the reverse order). */
  down: readonly string[];
}

/**
 * A migration that is a list of SQL statements: a class TypeORM accepts, recorded under `name`
 * (TypeORM reads its timestamp from the name's last 13 digits, so the name ends with them, as
 * `CreateChat1763900000100`). Each statement is one query, run in order inside the migration's
 * transaction. A migration already applied somewhere must keep its statements to the letter.
 */
export function sqlMigration(name: string, steps: SqlMigrationSteps): MigrationClass {
  if (!/\d{13}$/.test(name)) throw new Error(`Migration name ${name} must end with its 13-digit timestamp`);
  const run = async (runner: QueryRunner, statements: readonly string[]) => {
    for (const sql of statements) await runner.query(sql);
  };
  const migration = class implements MigrationInterface {
    name = name;

    async up(runner: QueryRunner): Promise<void> {
      await run(runner, steps.up);
    }

    async down(runner: QueryRunner): Promise<void> {
      await run(runner, steps.down);
    }
  };
  // Named like the migration in stack traces and logs, as a class of its own would be.
  Object.defineProperty(migration, 'name', { value: name });
  return migration;
}

/** `DROP TABLE` for each table, in the order given (dependents first). */
export function dropTables(tables: readonly string[], { ifExists = false }: { ifExists?: boolean } = {}): string[] {
  return tables.map((table) => `DROP TABLE ${ifExists ? 'IF EXISTS ' : ''}${table}`);
}
