import type { QueryRunner } from 'typeorm';
import { dropTables, sqlMigration } from './sql-migration';

/** The statements a migration sent, in order. */
const recordingRunner = () => {
  const sent: unknown[][] = [];
  const runner = {
    query: async (...args: unknown[]) => {
      sent.push(args);
      return [];
    },
  } as unknown as QueryRunner;
  return { runner, sent };
};

describe('sqlMigration', () => {
  const CreateThing1763700000009 = sqlMigration('CreateThing1763700000009', {
    up: ['CREATE TABLE thing (id int)', 'CREATE INDEX thing_idx ON thing (id)'],
    down: ['DROP INDEX thing_idx', 'DROP TABLE thing'],
  });

  it('is a class whose instances TypeORM records under the name (timestamp from its last 13 digits)', () => {
    const migration = new CreateThing1763700000009();
    expect(migration.name).toBe('CreateThing1763700000009');
    expect(CreateThing1763700000009.name).toBe('CreateThing1763700000009');
    expect(migration.transaction).toBeUndefined();
  });

  it('runs each statement as one query, in order, each way', async () => {
    const migration = new CreateThing1763700000009();
    const { runner, sent } = recordingRunner();
    await migration.up(runner);
    await migration.down(runner);
    expect(sent).toEqual([
      ['CREATE TABLE thing (id int)'],
      ['CREATE INDEX thing_idx ON thing (id)'],
      ['DROP INDEX thing_idx'],
      ['DROP TABLE thing'],
    ]);
  });

  it('stops at the first statement that fails', async () => {
    const migration = new CreateThing1763700000009();
    const sent: string[] = [];
    const runner = {
      query: async (sql: string) => {
        sent.push(sql);
        throw new Error('relation "thing" already exists');
      },
    } as unknown as QueryRunner;
    await expect(migration.up(runner)).rejects.toThrow('already exists');
    expect(sent).toEqual(['CREATE TABLE thing (id int)']);
  });

  it('refuses a name without its timestamp', () => {
    expect(() => sqlMigration('CreateThing', { up: [], down: [] })).toThrow('13-digit timestamp');
  });
});

describe('dropTables', () => {
  it('drops the tables in the order given', () => {
    expect(dropTables(['child', 'parent'])).toEqual(['DROP TABLE child', 'DROP TABLE parent']);
    expect(dropTables(['child', 'parent'], { ifExists: true })).toEqual(['DROP TABLE IF EXISTS child', 'DROP TABLE IF EXISTS parent']);
  });
});
