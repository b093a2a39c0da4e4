import { createTestDatabase, type TestDatabase } from '@app/testing';
import { Client } from 'pg';
import { createExtension } from './1766700000100-conversation-search';

/**
 * Services migrate their schemas in parallel at start, and two of them (chat, memory) use btree_gin:
 * the second CREATE EXTENSION IF NOT EXISTS waits for the first's transaction and then fails on its
 * row (a unique violation), which stopped the stack's boot now and then.
 */
describe('creating an extension two services need, at the same instant', () => {
  let database: TestDatabase;
  const clients: Client[] = [];

  beforeEach(async () => {
    database = await createTestDatabase('extension');
    for (let i = 0; i < 2; i++) {
      const client = new Client({ connectionString: database.url });
      await client.connect();
      clients.push(client);
    }
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.end()));
    await database.drop();
  });

  /** Both transactions create the extension; the first holds its transaction open until the second waits on it. */
  async function race(sql: string): Promise<PromiseSettledResult<unknown>[]> {
    const [first, second] = clients;
    await first.query('BEGIN');
    await first.query(sql);
    await second.query('BEGIN');
    const waiting = second.query(sql).then(() => second.query('COMMIT'));
    // Commit the first once the second is blocked behind it.
    for (;;) {
      const { rows } = await first.query(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
      );
      if (rows[0].n > 0) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    await first.query('COMMIT');
    const settled = await Promise.allSettled([waiting]);
    await second.query('ROLLBACK').catch(() => undefined);
    return settled;
  }

  it('fails the second with a plain CREATE EXTENSION IF NOT EXISTS (the defect)', async () => {
    const [result] = await race('CREATE EXTENSION IF NOT EXISTS btree_gin');
    expect(result.status).toBe('rejected');
  });

  it('lets both succeed with createExtension', async () => {
    const [result] = await race(createExtension('btree_gin'));
    expect(result.status).toBe('fulfilled');
    const { rows } = await clients[0].query("SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'btree_gin'");
    expect(rows[0].n).toBe(1);
  });
});
