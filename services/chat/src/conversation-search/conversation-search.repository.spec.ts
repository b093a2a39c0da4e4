import type { DataSource } from 'typeorm';
import { ConversationSearchRepository, type CompiledSearch } from './conversation-search.repository';

const USER = '0b7c2a44-1f7e-4e0a-9d53-5a1c36f2f001';

/** A data source whose EXPLAIN answers the given estimates (by tsquery text) and that records every other statement. */
function fakeDatabase(estimates: Record<string, number>) {
  const statements: { sql: string; params: unknown[] }[] = [];
  const dataSource = {
    query: async (sql: string, params: unknown[] = []) => {
      if (sql.startsWith('EXPLAIN')) return [{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': estimates[params[0] as string] ?? 0 } }] }];
      statements.push({ sql, params });
      return [];
    },
  } as unknown as DataSource;
  return { repo: new ConversationSearchRepository(dataSource), statements };
}

describe('conversation search: how candidates are read', () => {
  const rare = "'k:lidati':*";
  const common = "'k:bo':*";

  it('reads a common word from the newest rows (the index only if they hold too few)', async () => {
    const { repo, statements } = fakeDatabase({ [common]: 125_000 });
    await repo.messages(USER, { query: common, pieces: [common] }, 60);
    expect(statements[0].sql).toContain('WITH newest AS');
    expect(statements[0].params[3]).toBe(common);
  });

  it('reads a word the statistics put at their floor, or any rare one, from the index alone', async () => {
    const { repo, statements } = fakeDatabase({ [rare]: 1_000 });
    await repo.messages(USER, { query: rare, pieces: [rare] }, 60);
    expect(statements[0].sql).not.toContain('WITH newest AS');
    expect(statements[0].sql).not.toContain('ts_match_vq');
  });

  it('reads a query of several pieces by its rarest one, the whole query filtering', async () => {
    const search: CompiledSearch = { query: `(${rare}) & (${common})`, pieces: [common, rare] };
    const { repo, statements } = fakeDatabase({ [search.query]: 10, [rare]: 60, [common]: 125_000 });
    await repo.messages(USER, search, 60);
    await repo.titles(USER, search, 20);
    for (const { sql, params } of statements) {
      expect(sql).toContain('search @@ $4::tsquery AND ts_match_vq(search, $2::tsquery)');
      expect(sql).not.toContain('WITH newest AS');
      expect(params[1]).toBe(search.query);
      expect(params[3]).toBe(rare);
    }
  });

  it('reads several common pieces from the newest rows, by the whole query', async () => {
    const other = "'k:ni':*";
    const search: CompiledSearch = { query: `(${common}) & (${other})`, pieces: [common, other] };
    const { repo, statements } = fakeDatabase({ [search.query]: 6_000, [common]: 125_000, [other]: 90_000 });
    await repo.messages(USER, search, 60);
    expect(statements[0].sql).toContain('WITH newest AS');
    expect(statements[0].sql).not.toContain('ts_match_vq');
    expect(statements[0].params[3]).toBe(search.query);
  });
});
