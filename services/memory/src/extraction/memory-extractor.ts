import { z } from 'zod';

/** A memory an extractor found in one exchange, before it is merged with what is stored. */
export interface ExtractedMemory {
  /** Third person, short: "Lives in Lisbon", "Has a daughter named Ana". */
  text: string;
  /** What it is about (`home`, `diet`, `relation:wife`, `preference:jazz`); null when nothing else can contradict it. */
  subject: string | null;
  /** Drawn by the assistant rather than said by the user (stored unconfirmed). */
  isInference: boolean;
  /** A fact about the user (home, family, job); false for a taste or a preference. */
  isFact: boolean;
}

/** A memory already stored, shown to a model so that it reuses the subject and does not repeat it. */
export interface KnownMemory {
  text: string;
  subject: string | null;
}

/** One message and its reply, as the extractor reads them. */
export interface Exchange {
  userText: string;
  assistantText: string;
}

/** Finds what is worth remembering about the user in one exchange. */
export interface MemoryExtractor {
  readonly name: 'rules' | 'model';
  /** Whether `known` is used (only then does the service look it up). */
  readonly usesKnownMemories: boolean;
  extract(exchange: Exchange, known: KnownMemory[]): Promise<ExtractedMemory[]>;
}

export const MEMORY_EXTRACTOR = Symbol('MEMORY_EXTRACTOR');

/** The schema every extractor's output is checked against (a model's answer included). */
export const ExtractedMemorySchema = z.object({
  text: z.string().trim().min(1).max(500),
  subject: z.string().trim().max(200).nullable(),
  isInference: z.boolean(),
  isFact: z.boolean(),
});

/** Lower case, accents kept, punctuation and repeated spaces dropped: two texts equal here say the same. */
export function normalizeText(text: string): string {
  return text
    .normalize('NFC')
    .toLowerCase()
    .replace(/[’']/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** A subject as stored: lower case, `kind:value` with the value normalised (`preference:jazz music`). */
export function subjectKey(subject: string | null | undefined): string | null {
  if (!subject) return null;
  const [kind, ...rest] = subject.split(':');
  const parts = [kind, ...rest].map((part) => normalizeText(part)).filter(Boolean);
  const key = parts.join(':').slice(0, 200);
  return key || null;
}
