import { Inject, Injectable } from '@nestjs/common';
import type { PayloadOf } from '@app/contracts';
import type { CHAT_EVENTS } from '@app/contracts/chat';
import { AppLogger, type PublicOf } from '@app/platform';
import { z } from 'zod';
import { MemoriesRepository } from '../memories/memories.repository';
import { searchWords } from '../retrieval/retrieval.service';
import { awaitingConfirmation, planMerge } from './merge-plan';
import { ExtractionAnswerError } from './model.extractor';
import {
  ExtractedMemorySchema,
  MEMORY_EXTRACTOR,
  normalizeText,
  subjectKey,
  type ExtractedMemory,
  type KnownMemory,
  type MemoryExtractor,
} from './memory-extractor';
import { RuleBasedExtractor } from './rule-based.extractor';

type ExchangeCompleted = PayloadOf<typeof CHAT_EVENTS.exchangeCompleted>;

/** Known memories shown to a model extractor: the most relevant to the message, then the most recent. */
const KNOWN_RELEVANT = 30;
const KNOWN_RECENT = 20;

const Uuid = z.uuid();

/** What one exchange did to the user's memories. */
export type LearnOutcome = 'applied' | 'duplicate' | 'skipped';

/**
 * Learns from each completed exchange: extracts what is worth remembering about the user, then
 * merges it with what is stored (duplicates dropped, corrections applied to the memory they
 * correct), once per event however often it is delivered.
 */
@Injectable()
export class ExtractionService {
  private readonly fallback = new RuleBasedExtractor();

  constructor(
    @Inject(MemoriesRepository) private readonly store: PublicOf<MemoriesRepository>,
    @Inject(MEMORY_EXTRACTOR) private readonly extractor: MemoryExtractor,
    private readonly logger: AppLogger,
  ) {}

  async learn(eventId: string, exchange: ExchangeCompleted): Promise<LearnOutcome> {
    if (!Uuid.safeParse(exchange.user_id).success) {
      this.logger.warn({ msg: 'Exchange of a user id that is not a UUID: nothing learnt', event_id: eventId }, 'Extraction');
      return 'skipped';
    }
    // A redelivery must not ask the model again (the merge below is once-only in any case, so the
    // offline rules, which ask nobody, skip this statement: a redelivery is found by the merge).
    if (this.extractor.name === 'model' && (await this.store.applied(eventId))) return 'duplicate';
    const extracted = await this.extract(exchange);
    if (!extracted.length) {
      // Recorded all the same, so that a redelivery is recognised.
      return (await this.store.merge(eventId, exchange.user_id, this.sourceOf(exchange), { subjects: [], texts: [] }, () => ({
        inserts: [],
        updates: [],
      })))
        ? 'applied'
        : 'duplicate';
    }
    const lookup = {
      subjects: [...new Set(extracted.map((m) => subjectKey(m.subject)).filter((s): s is string => !!s))],
      texts: [...new Set(extracted.map((m) => normalizeText(m.text)))],
    };
    const applied = await this.store.merge(eventId, exchange.user_id, this.sourceOf(exchange), lookup, (candidates) => {
      const plan = planMerge(candidates, extracted, exchange.user_text);
      // Imported history: nothing learnt from it counts until the user confirms it (/confirm-memories).
      return exchange.unconfirmed ? awaitingConfirmation(plan, candidates) : plan;
    });
    return applied ? 'applied' : 'duplicate';
  }

  private sourceOf(exchange: ExchangeCompleted) {
    return {
      chatId: Uuid.safeParse(exchange.chat_id).success ? exchange.chat_id : null,
      messageId: Uuid.safeParse(exchange.user_message_id).success ? exchange.user_message_id : null,
    };
  }

  /** The configured extractor; when a model answers with something unusable, the offline rules instead. */
  private async extract(exchange: ExchangeCompleted): Promise<ExtractedMemory[]> {
    const input = { userText: exchange.user_text, assistantText: exchange.assistant_text };
    const known = this.extractor.usesKnownMemories ? await this.known(exchange.user_id, exchange.user_text) : [];
    let found: ExtractedMemory[];
    try {
      found = await this.extractor.extract(input, known);
    } catch (error) {
      if (!(error instanceof ExtractionAnswerError)) throw error;
      this.logger.warn({ msg: 'The model answered the extraction unusably: using the offline rules', error: error.message }, 'Extraction');
      found = await this.fallback.extract(input);
    }
    return found.filter((m) => ExtractedMemorySchema.safeParse(m).success);
  }

  private async known(userId: string, text: string): Promise<KnownMemory[]> {
    // One statement for both (after every exchange).
    const { hits, latest } = await this.store.known(userId, searchWords(text), KNOWN_RELEVANT, KNOWN_RECENT);
    const seen = new Set<string>();
    const out: KnownMemory[] = [];
    for (const memory of [...hits, ...latest]) {
      if (seen.has(memory.id)) continue;
      seen.add(memory.id);
      out.push({ text: memory.text, subject: memory.subjectKey });
    }
    return out;
  }
}
