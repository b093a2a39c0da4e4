import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Scripts written without spaces between words: each character becomes a word of its own (phrase-searched). */
export const UNSPACED_SCRIPTS = '\\u0e00-\\u0e7f\\u3040-\\u30ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uac00-\\ud7af\\uf900-\\ufaff';

/**
 * Search over a user's conversations (titles and messages), in any language:
 * - `chat_search`, a text search configuration that folds accents (`unaccent`, so "cafe" finds
 *   "Café" and "Łódź" finds "lodz") and otherwise keeps words as they are (`simple`: no stemming
 *   for one language, so Russian, Greek or Arabic words are found as typed);
 * - `search_document(text)`, which first cuts scripts written without spaces (Chinese, Japanese,
 *   Korean, Thai) into one word per character, so a part of a sentence is found as a phrase;
 * - `search_phrase(text)`, the same for a piece of a query with punctuation inside, as a phrase;
 * - `owned_search(user_id, tsvector)`: every word keyed by its owner (`<16 hex digits of the
 *   user id>:word`), so one GIN index holds a posting list per user and word: a search reads the
 *   caller's entries only. (A GIN index on (user_id, search) through btree_gin was tried first: it
 *   intersected every query with the user's whole posting list, 200,000 entries for a heavy user.)
 * - a generated `search` column of keyed words on messages (none while a reply is being written,
 *   nor for hidden messages) and on titles, each with its GIN index.
 * The extension goes into the chat schema, unless the database already has it elsewhere.
 */
export class ConversationSearch1766700000100 implements MigrationInterface {
  name = 'ConversationSearch1766700000100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('CREATE EXTENSION IF NOT EXISTS unaccent');
    const [{ schema }]: { schema: string }[] = await runner.query(
      "SELECT quote_ident(n.nspname) AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'unaccent'",
    );
    await runner.query('CREATE TEXT SEARCH CONFIGURATION chat_search (COPY = pg_catalog.simple)');
    await runner.query(
      `ALTER TEXT SEARCH CONFIGURATION chat_search ALTER MAPPING FOR word, hword, hword_part, numword, numhword, hword_numpart WITH ${schema}.unaccent, pg_catalog.simple`,
    );
    await runner.query(
      `CREATE FUNCTION search_document(body text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE SET search_path FROM CURRENT
       AS $$ SELECT to_tsvector('chat_search', regexp_replace(body, '([${UNSPACED_SCRIPTS}])', ' \\1 ', 'g')) $$`,
    );
    await runner.query(
      `CREATE FUNCTION search_phrase(typed text) RETURNS tsquery LANGUAGE sql IMMUTABLE PARALLEL SAFE SET search_path FROM CURRENT
       AS $$ SELECT phraseto_tsquery('chat_search', regexp_replace(typed, '([${UNSPACED_SCRIPTS}])', ' \\1 ', 'g')) $$`,
    );
    // In a tsvector's text form ('cafe':1 'lodz':3) every word opens with a quote at the start or after a
    // space (a word never holds a space): the key goes after it. The key is the user id's first 16 hex digits.
    await runner.query(
      `CREATE FUNCTION owned_search(owner uuid, doc tsvector) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE
       AS $$ SELECT regexp_replace(doc::text, '(^| )''', '\\1''' || left(replace(owner::text, '-', ''), 16) || ':', 'g')::tsvector $$`,
    );
    await runner.query(
      `ALTER TABLE message ADD COLUMN search tsvector GENERATED ALWAYS AS
       (CASE WHEN status = 'streaming' OR hidden THEN NULL ELSE owned_search(user_id, search_document(content)) END) STORED`,
    );
    await runner.query(
      "ALTER TABLE conversation ADD COLUMN search tsvector GENERATED ALWAYS AS (owned_search(user_id, search_document(coalesce(title, '')))) STORED",
    );
    await runner.query('CREATE INDEX message_search_idx ON message USING gin (search)');
    await runner.query('CREATE INDEX conversation_search_idx ON conversation USING gin (search)');
    // A common word is searched among the user's most recent messages: this index reads them newest first.
    await runner.query('CREATE INDEX message_user_recent_idx ON message (user_id, created_at DESC)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX message_user_recent_idx');
    await runner.query('ALTER TABLE conversation DROP COLUMN search');
    await runner.query('ALTER TABLE message DROP COLUMN search');
    await runner.query('DROP FUNCTION owned_search(uuid, tsvector)');
    await runner.query('DROP FUNCTION search_phrase(text)');
    await runner.query('DROP FUNCTION search_document(text)');
    await runner.query('DROP TEXT SEARCH CONFIGURATION chat_search');
  }
}
