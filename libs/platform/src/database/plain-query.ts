import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { QueryFailedError, type DataSource } from 'typeorm';

/**
 * A statement on a hot path (every reply's start and end), sent straight to the data source's pg
 * pool: TypeORM's `query()` builds a query runner, its broadcaster events and a result object
 * around each statement, CPU a reply pays several times over. With a `name`, the statement is
 * prepared once per connection (its text is not sent and parsed again); a name stands for one text
 * only. Answers the rows. Fails as TypeORM's `query()` does, so that the callers' error handling
 * (isTransientDatabaseError, SQLSTATE checks) sees the same errors: a connection not obtained
 * as the pool's error, a statement's failure wrapped in a QueryFailedError with the driver's error.
 * As with TypeORM, a failed statement gives its connection back for reuse; a connection that
 * emits an error while checked out is given back with it (the pool drops it).
 */
export async function plainQuery<R extends QueryResultRow>(
  dataSource: DataSource,
  statement: { text: string; name?: string },
  values: unknown[],
): Promise<R[]> {
  const pool = (dataSource.driver as unknown as { master: Pool }).master;
  const client: PoolClient = await pool.connect();
  return new Promise<R[]>((resolve, reject) => {
    let released = false;
    const onError = (error: Error) => {
      if (released) return;
      released = true;
      client.release(error);
      reject(new QueryFailedError(statement.text, values, error));
    };
    client.once('error', onError);
    client.query<R>({ name: statement.name, text: statement.text, values }, (error, result) => {
      client.removeListener('error', onError);
      if (released) return;
      released = true;
      client.release();
      if (error) reject(new QueryFailedError(statement.text, values, error));
      else resolve(result.rows);
    });
  });
}
