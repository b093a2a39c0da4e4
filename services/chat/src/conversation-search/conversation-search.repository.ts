import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { SearchQuery } from './search-terms';

export interface MessageHitRow {
  id: string;
  chat_id: string;
  sender: string;
  content: string;
  created_at: Date;
  title: string | null;
}

export interface TitleHitRow {
  id: string;
  title: string;
  created_at: Date;
}

/** How many of the user's most recent matches are ranked. */
const CANDIDATES = 200;
/**
 * Below this many matches (as PostgreSQL estimates them from the column's statistics) the user's
 * newest rows cannot hold the candidates: the GIN index alone is read.
 */
const FROM_INDEX_BELOW = 2 * CANDIDATES;

/** Where a search reads its candidates: messages by date, conversations (titles) by their last message. */
type Source = { table: 'message' | 'conversation'; columns: string; order: string; newest: number; live: string };
const MESSAGES: Source = { table: 'message', columns: 'id, created_at, search', order: 'created_at DESC', newest: 10_000, live: '' };
const TITLES: Source = {
  table: 'conversation',
  columns: 'id, title, created_at, last_message_at, search',
  order: 'last_message_at DESC NULLS LAST, created_at DESC',
  newest: 2_000,
  live: ' AND expires_at IS NULL',
};

/**
 * The `CANDIDATES` most recent of the user's rows matching `$2` (an owned tsquery), `$1` the user.
 * A rare query reads them from the GIN index (a few rows). A common one reads the user's newest rows
 * (their own index, newest first, stopping once it has the candidates), `source.newest` of them at
 * most; when those hold fewer, the index after all. So no plan reads a common word's every match
 * (measured: 125,000 matches of "bo" took 250-330 ms from the index, 1-5 ms from the newest rows).
 */
function candidates(source: Source, estimate: number): string {
  const fromIndex = `SELECT ${source.columns} FROM ${source.table}
    WHERE search @@ $2::tsquery AND user_id::text = $1::text${source.live} ORDER BY ${source.order} LIMIT ${CANDIDATES}`;
  if (estimate < FROM_INDEX_BELOW) return fromIndex;
  return `WITH newest AS (
      SELECT ${source.columns} FROM (
        SELECT ${source.columns} FROM ${source.table} WHERE user_id = $1::text::uuid${source.live} ORDER BY ${source.order} LIMIT ${source.newest}
      ) latest WHERE search @@ $2::tsquery ORDER BY ${source.order} LIMIT ${CANDIDATES}
    ), enough AS (SELECT count(*) = ${CANDIDATES} AS yes FROM newest)
    SELECT * FROM newest WHERE (SELECT yes FROM enough)
    UNION ALL SELECT * FROM (${fromIndex}) indexed WHERE NOT (SELECT yes FROM enough)`;
}

/** The key of a user's words in the `search` columns (`owned_search` in the migration). */
export const ownerKey = (userId: string) => userId.replace(/-/g, '').slice(0, 16).toLowerCase();

/** A tsquery's text with each word keyed by its owner ('cafe':* → '<key>:cafe':*). */
export function ownedQuery(tsquery: string, userId: string): string {
  const key = ownerKey(userId);
  return tsquery.replace(/'((?:[^']|'')*)'/g, (_, lexeme: string) => `'${key}:${lexeme}'`);
}

/**
 * The search's SQL (chat schema): the `search` columns of owner-keyed words, the `chat_search`
 * configuration, their GIN indexes and `message_user_recent_idx`. The owner's key makes the index
 * read only their entries; `user_id::text = $1::text` checks the owner again (a key is 64 bits of the id)
 * without offering PostgreSQL the user's whole row set to intersect with.
 */
@Injectable()
export class ConversationSearchRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The query as one tsquery (its text; null when it has no word): the plain words and each piece
   * with punctuation (parsed as a phrase), all required.
   */
  async compile(query: SearchQuery): Promise<string | null> {
    const [row]: { query: string | null }[] = await this.dataSource.query(
      `SELECT string_agg('(' || part || ')', ' & ') AS query FROM (
         SELECT to_tsquery('chat_search', $1)::text AS part WHERE $1 <> ''
         UNION ALL SELECT search_phrase(p)::text FROM unnest($2::text[]) AS p
       ) parts WHERE part <> ''`,
      [query.tsquery, query.phrases],
    );
    return row?.query ?? null;
  }

  /** How many rows of a table PostgreSQL expects an owned query to match (from the column's statistics). */
  async estimate(table: Source['table'], owned: string): Promise<number> {
    const [row]: { 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }[] = await this.dataSource.query(
      `EXPLAIN (FORMAT JSON) SELECT 1 FROM ${table} WHERE search @@ $1::tsquery`,
      [owned],
    );
    return row?.['QUERY PLAN'][0].Plan['Plan Rows'] ?? 0;
  }

  /**
   * The user's messages matching an owned query, best first: of the most recent matches
   * (`candidates`), rank divided by the log of the length (a short message that says it ranks above
   * a long one that mentions it).
   */
  async messages(userId: string, owned: string, limit: number): Promise<MessageHitRow[]> {
    const recent = candidates(MESSAGES, await this.estimate('message', owned));
    return this.dataSource.query(
      `WITH recent AS (${recent}),
       best AS (SELECT id, ts_rank_cd(search, $2::tsquery, 1) AS rank, created_at FROM recent ORDER BY rank DESC, created_at DESC LIMIT $3)
       SELECT m.id, m.chat_id, m.sender, m.content, m.created_at, c.title
       FROM best JOIN message m ON m.id = best.id JOIN conversation c ON c.id = m.chat_id AND c.user_id = $1::text::uuid AND c.expires_at IS NULL
       ORDER BY best.rank DESC, best.created_at DESC`,
      [userId, owned, limit],
    );
  }

  /** The user's conversations (temporary ones left out) whose title matches an owned query, best first. */
  async titles(userId: string, owned: string, limit: number): Promise<TitleHitRow[]> {
    const recent = candidates(TITLES, await this.estimate('conversation', owned));
    return this.dataSource.query(
      `WITH recent AS (${recent})
       SELECT id, title, created_at FROM recent ORDER BY ts_rank_cd(search, $2::tsquery, 1) DESC, last_message_at DESC NULLS LAST LIMIT $3`,
      [userId, owned, limit],
    );
  }
}
