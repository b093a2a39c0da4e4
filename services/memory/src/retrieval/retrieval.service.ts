import type { PublicOf } from '@app/platform';
import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import type { RelevantMemory } from '@app/contracts/memory';
import { MemoriesRepository, type RetrievedMemory, type SearchHit } from '../memories/memories.repository';

/** How many full-text matches are re-ranked (by confidence and recency) before the best are kept. */
export const CANDIDATES = 32;
const MAX_WORDS = 100;
const DAY_MS = 86_400_000;
/** After this many days a memory's recency weight is halfway to its floor. */
const RECENCY_HALF_LIFE_DAYS = 90;
const UNCONFIRMED_WEIGHT = 0.7;

/** The words of a query, for an OR of them (punctuation and the `or`/`and` operators dropped; stop words are PostgreSQL's). */
export function searchWords(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.filter((w) => w !== 'or' && w !== 'and'))].slice(0, MAX_WORDS);
}

/** Questions about the user themselves, which deserve their memories even when no word matches. */
const ABOUT_USER = [
  /\babout\s+(?:me|myself)\b/i,
  /\bwho\s+am\s+i\b/i,
  /\bwhat\s+do\s+you\s+(?:know|remember|recall)\b/i,
  /\bdo\s+you\s+(?:know|remember)\s+(?:me|my|anything|what)\b/i,
  /\b(?:remind|tell)\s+me\s+(?:about\s+)?(?:my|what\s+you)\b/i,
  /\bwhat(?:'s|’s|\s+is|\s+are)\s+my\b/i,
  /\byou\s+know\s+(?:about\s+)?me\b/i,
  /\bmy\s+(?:memories|profile|details|preferences)\b/i,
];

export function isAboutUser(query: string): boolean {
  return ABOUT_USER.some((pattern) => pattern.test(query));
}

/**
 * A match's final score: its full-text rank, weighed by confidence (what the user stated or
 * confirmed counts more than a guess waiting for them) and by recency (a memory fades to half its
 * weight, never below).
 */
export function scoreOf(hit: SearchHit<RetrievedMemory>, now: Date): number {
  const ageDays = Math.max(0, now.getTime() - hit.memory.updatedAt.getTime()) / DAY_MS;
  const recency = 0.5 + 0.5 * Math.pow(0.5, ageDays / RECENCY_HALF_LIFE_DAYS);
  const confidence = hit.memory.isConfirmed ? 1 : UNCONFIRMED_WEIGHT;
  return hit.textRank * confidence * recency;
}

export function rank<M extends RetrievedMemory>(hits: SearchHit<M>[], now: Date): M[] {
  return hits
    .map((hit) => ({ hit, score: scoreOf(hit, now) }))
    .sort((a, b) => b.score - a.score || b.hit.memory.updatedAt.getTime() - a.hit.memory.updatedAt.getTime())
    .map(({ hit }) => hit.memory);
}

const relevant = (memory: RetrievedMemory): RelevantMemory => ({
  user_memory_id: memory.id,
  text: memory.text,
  is_confirmed: memory.isConfirmed,
});

/**
 * Personalization before each reply: the caller's live memories that matter for what they just
 * wrote, best first. Removed memories never come back; another user's never come at all.
 */
@Injectable()
export class RetrievalService {
  constructor(@Inject(MemoriesRepository) private readonly store: PublicOf<MemoriesRepository>) {}

  async relevant(caller: Caller, query: string, limit: number, now = new Date()): Promise<{ memories: RelevantMemory[] }> {
    if (!caller.user_id) return { memories: [] };
    const userId = caller.user_id;
    // A question about the user reads their latest memories too, in the same statement (used only when the matches fall short).
    const { hits, latest } = await this.store.relevant(
      userId,
      searchWords(query),
      Math.max(CANDIDATES, limit),
      isAboutUser(query) ? limit : 0,
    );
    const found = rank(hits, now).slice(0, limit);
    if (found.length < limit) {
      const ids = new Set(found.map((m) => m.id));
      for (const memory of latest) {
        if (found.length >= limit) break;
        if (!ids.has(memory.id)) found.push(memory);
      }
    }
    return { memories: found.map(relevant) };
  }
}
