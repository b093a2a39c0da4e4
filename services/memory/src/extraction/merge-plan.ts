import { normalizeText, subjectKey, type ExtractedMemory } from './memory-extractor';
import { statesSomething } from './rule-based.extractor';

/** What one memory becomes: its new fields (all of them, so that applying it is simple). */
export interface MemoryFields {
  text: string;
  normalizedText: string;
  subjectKey: string | null;
  isInference: boolean;
  isFact: boolean;
  isConfirmed: boolean;
}

/** A live memory as the merge sees it: its fields and its id. */
export interface MergeCandidate extends MemoryFields {
  id: string;
}

export interface MergePlan {
  inserts: MemoryFields[];
  updates: { id: string; fields: MemoryFields }[];
}

/** A memory the user stated is confirmed by saying it; one the assistant inferred waits for the user. */
function fieldsOf(memory: ExtractedMemory): MemoryFields {
  const text = memory.text.replace(/\s+/g, ' ').trim();
  return {
    text,
    normalizedText: normalizeText(text),
    subjectKey: subjectKey(memory.subject),
    isInference: memory.isInference,
    isFact: memory.isFact,
    isConfirmed: !memory.isInference,
  };
}

/** Words that turn a text into its opposite: "Is not vegan" is not a more specific "Is vegan". */
const NEGATIONS = new Set('not no never non nor without dont doesnt didnt isnt arent wasnt cant cannot wont longer'.split(' '));

/**
 * Whether `text` says less than `than` and nothing else: its words are `than`'s, in order, with
 * some left out ("Has a dog" beside "Has a dog named Rex", "Lives in Portugal" beside "Lives in
 * Porto, Portugal"). Both normalised. A left-out negation makes the opposite, not a vaguer, text.
 */
export function isLessSpecific(text: string, than: string): boolean {
  const words = text.split(' ').filter(Boolean);
  const fuller = than.split(' ').filter(Boolean);
  if (!words.length || words.length >= fuller.length) return false;
  let i = 0;
  const dropped: string[] = [];
  for (const word of fuller) {
    if (i < words.length && word === words[i]) i++;
    else dropped.push(word);
  }
  return i === words.length && !dropped.some((word) => NEGATIONS.has(word));
}

/**
 * How newly extracted memories join the stored ones:
 * - the same text again changes nothing (except that a guess the user now states becomes theirs, confirmed);
 * - the same subject with another text is a correction: the stored memory is updated, not doubled
 *   ("I moved to Porto" after "I live in Lisbon");
 * - an inference never overwrites what the user stated, nor what the user confirmed;
 * - nor does anything read in a message that states nothing about the user (`userText` is only
 *   questions, wishes, hypotheticals, other people's facts or denials: "What is the name of my
 *   dog?", "my friend's dog is Max"), whichever extractor (rules or model) read it;
 * - a memory never gives way to a less specific one ("Has a dog" never replaces "Has a dog named
 *   Rex"), and a less specific one beside it is a repeat;
 * - anything else is new.
 * Within one exchange, a later statement about a subject wins over an earlier one.
 */
export function planMerge(existing: readonly MergeCandidate[], extracted: readonly ExtractedMemory[], userText: string): MergePlan {
  const inserts: (MemoryFields & { slot: number })[] = [];
  const updates = new Map<string, MemoryFields>();
  /** The stored memories and those this exchange adds, as the merge goes. */
  const pending: (MergeCandidate & { slot?: number })[] = existing.map((m) => ({ ...m }));
  const stated = statesSomething(userText);

  for (const memory of extracted) {
    const next = fieldsOf(memory);
    if (!next.normalizedText) continue;
    const sameText = pending.find((m) => m.normalizedText === next.normalizedText);
    if (sameText) {
      if (sameText.isInference && !next.isInference)
        promote(sameText, { ...sameText, isInference: false, isConfirmed: true, subjectKey: sameText.subjectKey ?? next.subjectKey });
      continue;
    }
    const sameSubject = next.subjectKey ? pending.find((m) => m.subjectKey === next.subjectKey) : undefined;
    if (sameSubject) {
      const storedIsFirm = !sameSubject.isInference || sameSubject.isConfirmed;
      if (storedIsFirm && (next.isInference || !stated)) continue;
      if (isLessSpecific(next.normalizedText, sameSubject.normalizedText)) continue;
      promote(sameSubject, next);
      continue;
    }
    if (pending.some((m) => isLessSpecific(next.normalizedText, m.normalizedText))) continue;
    const slot = inserts.length;
    inserts.push({ ...next, slot });
    pending.push({ id: `new:${slot}`, ...next, slot });
  }

  function promote(target: MergeCandidate & { slot?: number }, fields: MemoryFields): void {
    const { text, normalizedText, subjectKey: key, isInference, isFact, isConfirmed } = fields;
    const clean: MemoryFields = { text, normalizedText, subjectKey: key, isInference, isFact, isConfirmed };
    Object.assign(target, clean);
    if (target.slot !== undefined) inserts[target.slot] = { ...clean, slot: target.slot };
    else updates.set(target.id, clean);
  }

  return {
    inserts: inserts.map(({ slot: _slot, ...fields }) => fields),
    updates: [...updates].map(([id, fields]) => ({ id, fields })),
  };
}

/**
 * A plan for what was learnt from imported history (issue 25): new memories wait for the user's
 * confirmation, and nothing stored is confirmed by it (a stored memory keeps its own state).
 */
export function awaitingConfirmation(plan: MergePlan, candidates: MergeCandidate[]): MergePlan {
  const confirmed = new Map(candidates.map((c) => [c.id, c.isConfirmed]));
  return {
    inserts: plan.inserts.map((fields) => ({ ...fields, isConfirmed: false })),
    updates: plan.updates.map(({ id, fields }) => ({ id, fields: { ...fields, isConfirmed: confirmed.get(id) ?? false } })),
  };
}
