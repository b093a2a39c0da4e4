import { createServiceDataSource, toRpcError } from '@app/platform';
import type { DataSource } from 'typeorm';
import { havePostgresBinaries, OwnPostgresCluster } from '../support/postgres-cluster';

/** What a service answers for `error` (the RPC error shape); logs the error's class and code for the report. */
function answerFor(error: unknown): { status: number; kind: string } {
  const e = error as {
    constructor?: { name?: string };
    code?: string;
    driverError?: { code?: string; message?: string };
    message?: string;
  };
  const kind = `${e?.constructor?.name}${e?.code ? ` ${e.code}` : ''}${e?.driverError ? ` (driver: ${e.driverError.code ?? e.driverError.message})` : ''}`;
  return { status: toRpcError(error, 'r').shape.status, kind };
}

async function failureOf(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

/**
 * Faults of PostgreSQL itself, on a cluster of the test's own (stopped, restarted, crashed, made to
 * refuse connections): every error the driver and TypeORM raise then is classified as an outage (503
 * with Retry-After at the gateway), by its SQLSTATE, its socket code or its type, never by its words.
 */
(havePostgresBinaries() ? describe : describe.skip)('PostgreSQL away: what a service answers', () => {
  let cluster: OwnPostgresCluster;
  let dataSource: DataSource;
  const seen: string[] = [];

  const open = async (database = 'app') => {
    const source = createServiceDataSource({
      url: cluster.url(database),
      schema: 'public',
      entities: [],
      migrations: [],
      poolMax: 4,
      applicationName: 'fault-test',
    });
    await source.initialize();
    return source;
  };

  beforeAll(async () => {
    cluster = await OwnPostgresCluster.start();
    await cluster.createDatabase('app');
    dataSource = await open();
  }, 60_000);

  afterAll(async () => {
    await dataSource?.destroy().catch(() => undefined);
    await cluster?.close();
    process.stdout.write(`PostgreSQL faults, what the driver raised:\n  ${seen.join('\n  ')}\n`);
  }, 60_000);

  const expectOutage = (label: string, error: unknown) => {
    const answer = answerFor(error);
    seen.push(`${label}: ${answer.kind} -> ${answer.status}`);
    expect({ label, ...answer }).toEqual({ label, kind: answer.kind, status: 503 });
  };

  it('stopped (-m fast): a query is an outage, and so is every query until it is back', async () => {
    await dataSource.query('SELECT 1');
    cluster.stop('fast');
    expectOutage('stopped, first query', await failureOf(() => dataSource.query('SELECT 1')));
    expectOutage('stopped, next query', await failureOf(() => dataSource.query('SELECT 1')));
    expectOutage('stopped, a transaction', await failureOf(() => dataSource.transaction((m) => m.query('SELECT 1'))));
    await cluster.startAgain();
    await expect(dataSource.query('SELECT 1')).resolves.toBeDefined();
  }, 60_000);

  it('restarted under an open transaction: the transaction fails as an outage, and the pool recovers', async () => {
    const failure = failureOf(() =>
      dataSource.transaction(async (manager) => {
        await manager.query('SELECT 1');
        cluster.stop('fast');
        await cluster.startAgain();
        await manager.query('SELECT 2');
      }),
    );
    expectOutage('restarted mid-transaction', await failure);
    await expect(dataSource.query('SELECT 1')).resolves.toBeDefined();
  }, 60_000);

  it('crashed (-m immediate) with idle pooled connections, then back: what fails in between is an outage', async () => {
    await Promise.all([1, 2, 3].map(() => dataSource.query('SELECT pg_sleep(0.05)')));
    cluster.stop('immediate');
    expectOutage('crashed', await failureOf(() => dataSource.query('SELECT 1')));
    await cluster.startAgain();
    await expect(dataSource.query('SELECT 1')).resolves.toBeDefined();
  }, 60_000);

  it('a transaction whose query runner was released under it (QueryRunnerAlreadyReleasedError) is an outage', async () => {
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    await runner.release();
    expectOutage('released runner', await failureOf(() => runner.query('SELECT 1')));
  });

  it('refusing connections to the database (55000, "not currently accepting connections") is an outage', async () => {
    await cluster.createDatabase('refusing');
    const source = await open('refusing');
    await source.destroy();
    await cluster.sql('ALTER DATABASE refusing WITH ALLOW_CONNECTIONS false');
    const refused = await failureOf(() => open('refusing'));
    expect((refused as { code?: string }).code).toBe('55000');
    expectOutage('refusing (55000)', refused);
  }, 30_000);

  it('out of connection slots (53300) is an outage', async () => {
    await cluster.sql('CREATE ROLE limited LOGIN CONNECTION LIMIT 1');
    const { Client } = await import('pg');
    const first = new Client({ connectionString: `postgres://limited@127.0.0.1:${cluster.port}/app` });
    await first.connect();
    try {
      const second = new Client({ connectionString: `postgres://limited@127.0.0.1:${cluster.port}/app` });
      const refused = await failureOf(() => second.connect());
      expect((refused as { code?: string }).code).toBe('53300');
      expectOutage('too many connections (53300)', refused);
    } finally {
      await first.end();
    }
  }, 30_000);

  it('a 55000 raised by a statement is a fault of the code (500), not an outage; so is a syntax error', async () => {
    await dataSource.query('CREATE SEQUENCE IF NOT EXISTS s');
    const error = await failureOf(() => dataSource.query("SELECT currval('s')"));
    expect((error as { code?: string }).code).toBe('55000');
    expect(answerFor(error).status).toBe(500);
    expect(answerFor(await failureOf(() => dataSource.query('SELEC 1'))).status).toBe(500);
  });
});
