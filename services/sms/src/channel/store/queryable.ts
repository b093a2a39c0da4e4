/** What runs SQL: the data source, or the entity manager of a transaction (repositories take either). */
export interface Queryable {
  query<T = unknown>(sql: string, parameters?: unknown[]): Promise<T>;
}
