import { Injectable } from '@nestjs/common';
import { applyOnce, isForgotten, lockUser, plainQuery, platformMetrics } from '@app/platform';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import type { MergeCandidate, MergePlan } from '../extraction/merge-plan';
import { UserMemoryEntity } from './user-memory.entity';

/** A stored memory as the logic sees it. */
export interface StoredMemory extends MergeCandidate {
  userId: string;
  sourceChatId: string | null;
  sourceMessageId: string | null;
  createdAt: Date;
  updatedAt: Date;
  removedAt: Date | null;
}

/** A memory that matches a query, with PostgreSQL's full-text rank (ts_rank). */
export interface SearchHit<M extends RetrievedMemory = StoredMemory> {
  memory: M;
  textRank: number;
}

/** What a model extractor is shown of a memory (`known`). */
export type KnownRow = Pick<StoredMemory, 'id' | 'text' | 'subjectKey'>;

/** What personalization reads of a memory: what it ranks it by and what it tells the chat. */
export type RetrievedMemory = Pick<StoredMemory, 'id' | 'text' | 'isConfirmed' | 'updatedAt'>;

/**
 * Personalization's one statement, prepared once per connection (a generic plan: no planning per
 * call). The query's words become a tsquery once, in a subquery kept apart from the join (OFFSET 0):
 * inlined, a generic plan evaluated websearch_to_tsquery again for every row (20 ms for 1,250
 * matches instead of 1). Only the columns retrieval uses are read (all thirteen took twice as long,
 * their dates parsed for nothing). The user's latest memories come in the same round trip when asked
 * for ($4 > 0): `kind` tells them apart.
 */
const relevantSql = (more = '') => `
  (SELECT 'match' AS kind, m.user_memory_id, m.text, m.is_confirmed, m.updated_at${more}, ts_rank(m.search, query.q) AS text_rank
   FROM (SELECT websearch_to_tsquery('english', $2::text) AS q OFFSET 0) AS query, user_memory m
   WHERE m.user_id = $1 AND m.removed_at IS NULL AND m.search @@ query.q
   ORDER BY text_rank DESC, m.updated_at DESC
   LIMIT $3)
  UNION ALL
  (SELECT 'latest', m.user_memory_id, m.text, m.is_confirmed, m.updated_at${more}, NULL
   FROM user_memory m
   WHERE m.user_id = $1 AND m.removed_at IS NULL
   ORDER BY m.is_confirmed DESC, m.updated_at DESC
   LIMIT $4)`;
const RELEVANT = { name: 'memory-relevant', text: relevantSql() };
/** The same for a model extractor after every exchange (ExtractionService), with each memory's subject. */
const KNOWN = { name: 'memory-known', text: relevantSql(', m.subject_key') };

interface RelevantRow {
  kind: 'match' | 'latest';
  subject_key?: string | null;
  user_memory_id: string;
  text: string;
  is_confirmed: boolean;
  updated_at: Date;
  text_rank: number | string | null;
}

/** Where the extracted memories came from. */
export interface MemorySource {
  chatId: string | null;
  messageId: string | null;
}

export const EXTRACTION_CONSUMER = 'memory-extraction';

/** After every exchange (plainQuery, prepared once per connection): whether it was learnt from already, and its record alone. */
const IS_APPLIED = { name: 'memory-is-applied', text: 'SELECT 1 FROM processed_event WHERE consumer = $1 AND event_id = $2' };
const RECORD_APPLIED = {
  name: 'memory-record-applied',
  text: 'INSERT INTO processed_event (consumer, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING event_id',
};

const view = (row: UserMemoryEntity): StoredMemory => ({
  id: row.id,
  userId: row.userId,
  sourceChatId: row.sourceChatId,
  sourceMessageId: row.sourceMessageId,
  text: row.text,
  normalizedText: row.normalizedText,
  subjectKey: row.subjectKey,
  isInference: row.isInference,
  isFact: row.isFact,
  isConfirmed: row.isConfirmed,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
  removedAt: row.removedAt,
});

/** The only file that touches the memory schema. Every read and write is scoped by the owner. */
@Injectable()
export class MemoriesRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get memories() {
    return this.dataSource.getRepository(UserMemoryEntity);
  }

  private live(userId: string, manager: EntityManager = this.dataSource.manager) {
    return manager
      .getRepository(UserMemoryEntity)
      .createQueryBuilder('m')
      .where('m.user_id = :userId AND m.removed_at IS NULL', { userId });
  }

  /** Live memories (not removed), newest first; of one conversation when given. */
  async list(userId: string, sourceChatId?: string): Promise<StoredMemory[]> {
    const query = this.live(userId).orderBy('m.updated_at', 'DESC').addOrderBy('m.created_at', 'DESC');
    if (sourceChatId) query.andWhere('m.source_chat_id = :sourceChatId', { sourceChatId });
    return (await query.getMany()).map(view);
  }

  /** Changes a live memory of the user; null when there is none. */
  async update(
    userId: string,
    id: string,
    change: Partial<Pick<StoredMemory, 'text' | 'normalizedText' | 'isConfirmed'>>,
  ): Promise<StoredMemory | null> {
    const result = await this.memories
      .createQueryBuilder()
      .update(UserMemoryEntity)
      .set({ ...change, updatedAt: () => 'now()' })
      .where('user_memory_id = :id AND user_id = :userId AND removed_at IS NULL', { id, userId })
      .execute();
    return (result.affected ?? 0) > 0 ? this.find(userId, id) : null;
  }

  /** Marks a memory removed. `missing`: not the user's (or erased already). */
  async remove(userId: string, id: string): Promise<'removed' | 'already-removed' | 'missing'> {
    const result = await this.memories
      .createQueryBuilder()
      .update(UserMemoryEntity)
      .set({ removedAt: () => 'now()' })
      .where('user_memory_id = :id AND user_id = :userId AND removed_at IS NULL', { id, userId })
      .execute();
    if ((result.affected ?? 0) > 0) return 'removed';
    return (await this.memories.exists({ where: { id, userId } })) ? 'already-removed' : 'missing';
  }

  /** Brings back a memory removed less than `windowSeconds` ago; a live one is answered as it is; null otherwise. */
  async restore(userId: string, id: string, windowSeconds: number): Promise<StoredMemory | null> {
    await this.memories
      .createQueryBuilder()
      .update(UserMemoryEntity)
      .set({ removedAt: null, updatedAt: () => 'now()' })
      .where('user_memory_id = :id AND user_id = :userId', { id, userId })
      .andWhere('removed_at >= now() - make_interval(secs => :windowSeconds)', { windowSeconds })
      .execute();
    const row = await this.find(userId, id);
    return row && !row.removedAt ? row : null;
  }

  /**
   * Personalization in one round trip: the `candidates` live memories best matching any of the
   * words (full text, `english`), and the user's `latest` live memories (confirmed first, then the
   * most recently updated; none when 0).
   */
  async relevant(
    userId: string,
    words: string[],
    candidates: number,
    latest: number,
  ): Promise<{ hits: SearchHit<RetrievedMemory>[]; latest: RetrievedMemory[] }> {
    if (!words.length && latest <= 0) return { hits: [], latest: [] };
    const rows = await plainQuery<RelevantRow>(this.dataSource, RELEVANT, [
      userId,
      words.length ? words.join(' or ') : null,
      candidates,
      Math.max(0, latest),
    ]);
    const found = { hits: [] as SearchHit<RetrievedMemory>[], latest: [] as RetrievedMemory[] };
    for (const row of rows) {
      const memory = { id: row.user_memory_id, text: row.text, isConfirmed: row.is_confirmed, updatedAt: row.updated_at };
      if (row.kind === 'match') found.hits.push({ memory, textRank: Number(row.text_rank) });
      else found.latest.push(memory);
    }
    return found;
  }

  /**
   * What a model extractor is shown, in one statement (as `relevant`, with each memory's subject): the
   * `candidates` live memories best matching any of the words, and the user's `latest` live memories
   * (confirmed first, then the most recently updated).
   */
  async known(userId: string, words: string[], candidates: number, latest: number): Promise<{ hits: KnownRow[]; latest: KnownRow[] }> {
    const rows = await plainQuery<RelevantRow>(this.dataSource, KNOWN, [
      userId,
      words.length ? words.join(' or ') : null,
      candidates,
      Math.max(0, latest),
    ]);
    const found = { hits: [] as KnownRow[], latest: [] as KnownRow[] };
    for (const row of rows) {
      (row.kind === 'match' ? found.hits : found.latest).push({
        id: row.user_memory_id,
        text: row.text,
        subjectKey: row.subject_key ?? null,
      });
    }
    return found;
  }

  /** Whether an event was applied already (so a redelivery does not ask the model again). After every exchange: a plain query. */
  async applied(eventId: string): Promise<boolean> {
    const rows = await plainQuery(this.dataSource, IS_APPLIED, [EXTRACTION_CONSUMER, eventId]);
    // A redelivery, caught before the model is asked anything: counted with those applyOnce catches.
    if (rows.length > 0) platformMetrics.recordEventRedelivered(EXTRACTION_CONSUMER);
    return rows.length > 0;
  }

  /**
   * Once per event, in one transaction holding the user's lock: reads the live memories that share a
   * subject or a text with what was extracted, or say more than one of its texts ("has a dog named
   * rex" for "has a dog", so that the merge can see a vaguer text is a repeat), asks `plan` what to
   * change, and writes it.
   * Answers false when the event was applied already.
   */
  merge(
    eventId: string,
    userId: string,
    source: MemorySource,
    lookup: { subjects: string[]; texts: string[] },
    plan: (candidates: StoredMemory[]) => MergePlan,
  ): Promise<boolean> {
    if (!lookup.subjects.length && !lookup.texts.length) {
      // Nothing to look up: no memory is a candidate, so what the plan asks is known now. When it asks
      // nothing (an exchange with nothing worth remembering: most of them), the event is only recorded
      // as applied, in one statement instead of a transaction of six (the user's lock, the forgotten
      // check and the candidates' read guard writes that do not come).
      const nothing = plan([]);
      if (!nothing.inserts.length && !nothing.updates.length) return this.recordApplied(eventId);
    }
    return applyOnce(this.dataSource, EXTRACTION_CONSUMER, eventId, async (manager) => {
      // One merge per user at a time (two exchanges ending together cannot both add the same
      // subject), and never for a deleted account (an exchange that arrives after the purge).
      await lockUser(manager, userId);
      if (await isForgotten(manager, userId)) return;
      const fuller = lookup.texts.map((text) => `${text.replace(/[\\%_]/g, '\\$&')} %`);
      const candidates = await this.live(userId, manager)
        .andWhere('(m.subject_key = ANY(:subjects) OR m.normalized_text = ANY(:texts) OR m.normalized_text LIKE ANY(:fuller))', {
          ...lookup,
          fuller,
        })
        .getMany();
      const { inserts, updates } = plan(candidates.map(view));
      const now = new Date();
      if (inserts.length) {
        await manager.insert(
          UserMemoryEntity,
          inserts.map((fields) => ({
            ...fields,
            id: randomUUID(),
            userId,
            sourceChatId: source.chatId,
            sourceMessageId: source.messageId,
            createdAt: now,
            updatedAt: now,
            removedAt: null,
          })),
        );
      }
      for (const { id, fields } of updates) {
        await manager.update(
          UserMemoryEntity,
          { id, userId },
          { ...fields, sourceChatId: source.chatId, sourceMessageId: source.messageId, updatedAt: now },
        );
      }
    });
  }

  /** Records the event as applied (what applyOnce records, alone); false when it was already. */
  private async recordApplied(eventId: string): Promise<boolean> {
    const rows = await plainQuery(this.dataSource, RECORD_APPLIED, [EXTRACTION_CONSUMER, eventId]);
    if (rows.length === 0) platformMetrics.recordEventRedelivered(EXTRACTION_CONSUMER);
    return rows.length > 0;
  }

  /** Erases memories removed before `windowSeconds` ago (after the undo window); answers how many. */
  async eraseRemoved(windowSeconds: number): Promise<number> {
    const result = await this.memories
      .createQueryBuilder()
      .delete()
      .from(UserMemoryEntity)
      .where('removed_at < now() - make_interval(secs => :windowSeconds)', { windowSeconds })
      .execute();
    return result.affected ?? 0;
  }

  private async find(userId: string, id: string): Promise<StoredMemory | null> {
    const row = await this.memories.findOne({ where: { id, userId } });
    return row && view(row);
  }
}
