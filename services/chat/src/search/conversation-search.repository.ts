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

/**
 * How many of the user's most recent matches are ranked. A word in most messages ranks the newest
 * (read newest first from `message_user_recent_idx`); a rarer word takes the per-user GIN index: either
 * way a search reads a bounded part of one user's rows.
 */
const CANDIDATES = 200;

/** The search's SQL (chat schema): `search` columns, the `chat_search` configuration, the (user_id, search) GIN indexes. */
@Injectable()
export class ConversationSearchRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The query as one tsquery (its text; null when it has no word): the plain words and each piece
   * with punctuation (parsed as a phrase), all required. Made first, on its own, so that the searches
   * are planned knowing it (how common its words are decides which index reads fewer rows).
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

  /** The user's messages matching the query (a `to_tsquery` text), best first (rank divided by the log of the length: a short message that says it ranks above a long one that mentions it). */
  messages(userId: string, tsquery: string, limit: number): Promise<MessageHitRow[]> {
    return this.dataSource.query(
      `WITH recent AS (
         SELECT m.id, m.created_at, ts_rank_cd(m.search, $2::tsquery, 1) AS rank
         FROM message m WHERE m.user_id = $1 AND m.search @@ $2::tsquery
         ORDER BY m.created_at DESC LIMIT ${CANDIDATES}
       ), best AS (SELECT id, rank FROM recent ORDER BY rank DESC, created_at DESC LIMIT $3)
       SELECT m.id, m.chat_id, m.sender, m.content, m.created_at, c.title
       FROM best JOIN message m ON m.id = best.id JOIN conversation c ON c.id = m.chat_id AND c.user_id = $1
       ORDER BY best.rank DESC, m.created_at DESC`,
      [userId, tsquery, limit],
    );
  }

  /** The user's conversations whose title matches, best first. */
  titles(userId: string, tsquery: string, limit: number): Promise<TitleHitRow[]> {
    return this.dataSource.query(
      `WITH recent AS (
         SELECT c.id, c.title, c.created_at, ts_rank_cd(c.search, $2::tsquery, 1) AS rank, c.last_message_at
         FROM conversation c WHERE c.user_id = $1 AND c.search @@ $2::tsquery
         ORDER BY c.last_message_at DESC NULLS LAST LIMIT ${CANDIDATES}
       )
       SELECT id, title, created_at FROM recent ORDER BY rank DESC, last_message_at DESC NULLS LAST LIMIT $3`,
      [userId, tsquery, limit],
    );
  }
}
