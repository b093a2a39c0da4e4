import { createServiceDataSource, toRpcError } from '@app/platform';
import type { DataSource } from 'typeorm';
import { haveNatsServer } from '../support/nats-server';
import { havePostgresBinaries, OwnPostgresCluster } from '../support/postgres-cluster';
import { sleep, until } from '../support/until';
import { DistributedProduct, guestWithChat, haveRedisServer } from './support/product';

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

interface Answer {
  phase: string;
  path: string;
  status: number;
  retryAfter: string | null;
  detailOnly: boolean;
  ms: number;
}

/**
 * The same faults seen by clients of the distributed mode (each part in its own process, every
 * service on the test's own cluster): guests keep reading and writing through the gateway while
 * PostgreSQL is stopped and started (-m fast), crashes (-m immediate) and refuses connections to the
 * database (ALLOW_CONNECTIONS false, its sessions ended). No answer is a 500, every 503 (or 504) says
 * Retry-After, none waits more than a few seconds, and all works again once the database is back.
 */
(havePostgresBinaries() && haveNatsServer() && haveRedisServer() ? describe : describe.skip)('PostgreSQL away: what a client sees', () => {
  let cluster: OwnPostgresCluster;
  let product: DistributedProduct;

  beforeAll(async () => {
    cluster = await OwnPostgresCluster.start();
    const url = await cluster.createDatabase('app');
    product = await DistributedProduct.start('pgfault', {
      services: ['auth', 'chat', 'memory'],
      env: { DATABASE_URL: url, OFFLINE_TOKEN_DELAY_MS: '0', CHAT_GUEST_DAILY_LIMIT: '100000' },
    });
  }, 180_000);

  afterAll(async () => {
    await product?.close();
    await cluster?.close();
  }, 60_000);

  it('answers 503 with Retry-After, never 500, within seconds, through a restart, a crash and a refusal', async () => {
    const guests = await Promise.all(Array.from({ length: 6 }, () => guestWithChat(product.url)));
    const answers: Answer[] = [];
    let phase = 'up';
    let running = true;
    const request = async (token: string, method: string, path: string) => {
      const started = performance.now();
      const res = await fetch(`${product.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
        body: method === 'POST' ? '{}' : undefined,
      });
      const body = (await res.json().catch(() => null)) as unknown;
      answers.push({
        phase,
        path: `${method} ${path.replace(/[0-9a-f-]{36}/g, ':id')}`,
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        detailOnly: res.status < 400 || (typeof body === 'object' && body !== null && Object.keys(body).join() === 'detail'),
        ms: performance.now() - started,
      });
      return res.status;
    };
    const client = async (guest: { token: string; chatId: string }) => {
      while (running) {
        const statuses = [
          await request(guest.token, 'GET', '/api/v1/chats/'),
          await request(guest.token, 'GET', '/api/v1/user_memory/'),
          await request(guest.token, 'POST', '/api/v1/chats/'),
          await request('', 'POST', '/api/v1/auth/anon'),
        ];
        if (statuses.some((s) => s >= 500)) await sleep(100);
      }
    };
    const load = Promise.all(guests.map(client));
    const recovered = async (label: string) => {
      phase = `${label}, back`;
      const since = answers.length;
      await until(
        `every call answers again after: ${label}`,
        () => answers.slice(since).filter((a) => a.status < 300).length >= 24,
        30_000,
      );
    };

    await sleep(1_000);
    phase = 'stopped (-m fast)';
    cluster.stop('fast');
    await sleep(2_000);
    await cluster.startAgain();
    await recovered('stopped (-m fast)');

    phase = 'crashed (-m immediate)';
    cluster.stop('immediate');
    await sleep(2_000);
    await cluster.startAgain();
    await recovered('crashed (-m immediate)');

    phase = 'refusing connections (55000)';
    await cluster.sql('ALTER DATABASE app WITH ALLOW_CONNECTIONS false');
    await cluster.sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'app'");
    await sleep(2_000);
    await cluster.sql('ALTER DATABASE app WITH ALLOW_CONNECTIONS true');
    await recovered('refusing connections (55000)');

    running = false;
    await load;

    const byPhase = new Map<string, Record<string, number>>();
    for (const a of answers) {
      const counts = byPhase.get(a.phase) ?? {};
      counts[a.status] = (counts[a.status] ?? 0) + 1;
      byPhase.set(a.phase, counts);
    }
    const failed = answers.filter((a) => a.status >= 500);
    process.stdout.write(
      `PostgreSQL faults through the gateway: ${answers.length} calls; statuses by phase ${JSON.stringify(Object.fromEntries(byPhase))}; ` +
        `failures ${failed.length}, longest ${Math.round(Math.max(0, ...failed.map((a) => a.ms)))} ms, ` +
        `Retry-After ${JSON.stringify([...new Set(failed.map((a) => a.retryAfter))])}; 500s: ${JSON.stringify(answers.filter((a) => a.status === 500).slice(0, 5))}\n`,
    );
    expect(answers.filter((a) => a.status === 500)).toEqual([]);
    expect(failed.length).toBeGreaterThan(0);
    for (const a of failed) {
      expect({
        path: a.path,
        status: [503, 504].includes(a.status),
        retryAfter: Number(a.retryAfter) > 0,
        detailOnly: a.detailOnly,
        quick: a.ms < 6_000,
      }).toEqual({
        path: a.path,
        status: true,
        retryAfter: true,
        detailOnly: true,
        quick: true,
      });
    }
  }, 300_000);
});
