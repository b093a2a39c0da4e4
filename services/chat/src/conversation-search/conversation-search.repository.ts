import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { SearchQuery } from '@app/contracts/chat';

export interface MessageHitRow {
  id: string;
  chat_id: string;
  sender: string;
  content: string;
  created_at: Date;
  title: string | null;
  project_id: string | null;
}

export interface TitleHitRow {
  id: string;
  title: string;
  created_at: Date;
  project_id: string | null;
}

/** How many of the user's most recent matches are ranked. */
const CANDIDATES = 200;

/**
 * Where a search reads its candidates: messages by date, conversations (titles) by their last message.
 * Below `fromIndexBelow` matches (as PostgreSQL estimates them from the column's statistics) the
 * GIN index alone is read: each match costs a row read, and the user's `newest` rows would not hold
 * the candidates anyway (a word in fewer than CANDIDATES of `newest` rows, about `CANDIDATES × rows /
 * newest` matches for a heavy user: 4,000 messages of 200,000). Above it, the newest rows are read
 * until they hold the candidates, CANDIDATES × rows / matches of them. The two cost the same at
 * about √(CANDIDATES × rows) matches: 6,300 for 200,000 messages, 1,400 for 10,000 conversations.
 * A word PostgreSQL's statistics do not list is estimated at a floor (1,000 of 1.2 million rows in
 * the bench): mostly a rare one, read from the index (a 10,000-row window read for 200 matches took
 * 25-55 ms on the busy machine, the index 1 ms); a middle one (4,855 matches of "dav") costs as
 * many row reads either way.
 */
type Source = { table: 'message' | 'conversation'; columns: string; order: string; newest: number; fromIndexBelow: number; live: string };
const MESSAGES: Source = {
  table: 'message',
  columns: 'id, created_at, search',
  order: 'created_at DESC',
  newest: 10_000,
  fromIndexBelow: 5_000,
  live: '',
};
const TITLES: Source = {
  table: 'conversation',
  columns: 'id, title, created_at, last_message_at, project_id, search',
  order: 'last_message_at DESC NULLS LAST, created_at DESC',
  newest: 2_000,
  fromIndexBelow: 1_000,
  live: ' AND expires_at IS NULL',
};

/** How a search reads its candidates: the index by `$4` (`narrowed`: by its rarest piece, the whole query filtering), or the newest rows. */
type Plan = { fromIndex: boolean; narrowed: boolean };

/**
 * The `CANDIDATES` most recent of the user's rows matching `$2` (an owned tsquery), `$1` the user,
 * `$4` what the index is read by. A rare query reads them from the GIN index (a few rows). A common
 * one reads the user's newest rows (their own index, newest first, stopping once it has the
 * candidates), `source.newest` of them at most; when those hold fewer, the index after all. So no
 * plan reads a common word's every match (measured: 125,000 matches of "bo" took 250-330 ms from the
 * index, 1-5 ms from the newest rows). A query of several pieces of which one is rare reads the
 * index by that piece alone, the whole query filtering its rows: "lidati bo" read by "bo" too (its
 * 125,000 entries intersected) took 48 ms, by "lidati" alone 1 ms.
 */
function candidates(source: Source, plan: Plan): string {
  const filter = plan.narrowed ? ' AND ts_match_vq(search, $2::tsquery)' : '';
  const fromIndex = `SELECT ${source.columns} FROM ${source.table}
    WHERE search @@ $4::tsquery${filter} AND user_id::text = $1::text${source.live} ORDER BY ${source.order} LIMIT ${CANDIDATES}`;
  if (plan.fromIndex) return fromIndex;
  return `WITH newest AS (
      SELECT ${source.columns} FROM (
        SELECT ${source.columns} FROM ${source.table} WHERE user_id = $1::text::uuid${source.live} ORDER BY ${source.order} LIMIT ${source.newest}
      ) latest WHERE search @@ $2::tsquery ORDER BY ${source.order} LIMIT ${CANDIDATES}
    ), enough AS (SELECT count(*) = ${CANDIDATES} AS yes FROM newest)
    SELECT * FROM newest WHERE (SELECT yes FROM enough)
    UNION ALL SELECT * FROM (${fromIndex}) indexed WHERE NOT (SELECT yes FROM enough)`;
}

/** A compiled search (tsquery texts): the whole query, and each of its pieces alone (one when it has one). */
export interface CompiledSearch {
  query: string;
  pieces: string[];
}

/** The key of a user's words in the `search` columns (`owned_search` in the migration). */
export const ownerKey = (userId: string) => userId.replace(/-/g, '').slice(0, 16).toLowerCase();

/** A tsquery's text with each word keyed by its owner ('cafe':* → '<key>:cafe':*). */
export function ownedQuery(tsquery: string, userId: string): string {
  const key = ownerKey(userId);
  return tsquery.replace(/'((?:[^']|'')*)'/g, (_, lexeme: string) => `'${key}:${lexeme}'`);
}

/** A compiled search with every word keyed by its owner. */
export const ownedSearch = (compiled: CompiledSearch, userId: string): CompiledSearch => ({
  query: ownedQuery(compiled.query, userId),
  pieces: compiled.pieces.map((piece) => ownedQuery(piece, userId)),
});

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
   * with punctuation (parsed as a phrase), all required; and each of those pieces alone.
   */
  async compile(query: SearchQuery): Promise<CompiledSearch | null> {
    const rows: { part: string }[] = await this.dataSource.query(
      `SELECT part FROM (
         SELECT to_tsquery('chat_search', w)::text AS part FROM unnest($1::text[]) AS w
         UNION ALL SELECT search_phrase(p)::text FROM unnest($2::text[]) AS p
       ) parts WHERE part <> ''`,
      [query.words, query.phrases],
    );
    const pieces = rows.map((row) => row.part);
    if (!pieces.length) return null;
    return { query: pieces.map((piece) => `(${piece})`).join(' & '), pieces };
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
   * How to read a source's candidates, and by what (`$4`): by the index when PostgreSQL expects the
   * query to be rare, by its rarest piece when that one is, else from the newest rows.
   */
  private async plan(source: Source, owned: CompiledSearch): Promise<{ plan: Plan; by: string }> {
    const several = owned.pieces.length > 1;
    const [whole, ...each] = await Promise.all([
      this.estimate(source.table, owned.query),
      ...(several ? owned.pieces.map((piece) => this.estimate(source.table, piece)) : []),
    ]);
    const rarest = several ? each.indexOf(Math.min(...each)) : -1;
    if (several && each[rarest] < source.fromIndexBelow) return { plan: { fromIndex: true, narrowed: true }, by: owned.pieces[rarest] };
    return { plan: { fromIndex: whole < source.fromIndexBelow, narrowed: false }, by: owned.query };
  }

  /**
   * The user's messages matching an owned query, best first: of the most recent matches
   * (`candidates`), rank divided by the log of the length (a short message that says it ranks above
   * a long one that mentions it).
   */
  async messages(userId: string, owned: CompiledSearch, limit: number): Promise<MessageHitRow[]> {
    const { plan, by } = await this.plan(MESSAGES, owned);
    const recent = candidates(MESSAGES, plan);
    return this.dataSource.query(
      `WITH recent AS (${recent}),
       best AS (SELECT id, ts_rank_cd(search, $2::tsquery, 1) AS rank, created_at FROM recent ORDER BY rank DESC, created_at DESC LIMIT $3)
       SELECT m.id, m.chat_id, m.sender, m.content, m.created_at, c.title, c.project_id
       FROM best JOIN message m ON m.id = best.id JOIN conversation c ON c.id = m.chat_id AND c.user_id = $1::text::uuid AND c.expires_at IS NULL
       ORDER BY best.rank DESC, best.created_at DESC`,
      [userId, owned.query, limit, by],
    );
  }

  /** The user's conversations (temporary ones left out) whose title matches an owned query, best first. */
  async titles(userId: string, owned: CompiledSearch, limit: number): Promise<TitleHitRow[]> {
    const { plan, by } = await this.plan(TITLES, owned);
    const recent = candidates(TITLES, plan);
    return this.dataSource.query(
      `WITH recent AS (${recent})
       SELECT id, title, created_at, project_id FROM recent ORDER BY ts_rank_cd(search, $2::tsquery, 1) DESC, last_message_at DESC NULLS LAST LIMIT $3`,
      [userId, owned.query, limit, by],
    );
  }
}
