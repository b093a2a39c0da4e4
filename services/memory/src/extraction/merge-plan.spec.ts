import type { ExtractedMemory } from './memory-extractor';
import { awaitingConfirmation, isLessSpecific, planMerge, type MergeCandidate } from './merge-plan';

const stored = (id: string, text: string, subjectKey: string | null, fields: Partial<MergeCandidate> = {}): MergeCandidate => ({
  id,
  text,
  normalizedText: text.toLowerCase(),
  subjectKey,
  isInference: false,
  isFact: true,
  isConfirmed: true,
  ...fields,
});
const said = (text: string, subject: string | null, isInference = false): ExtractedMemory => ({ text, subject, isInference, isFact: true });
/** A message that states something about the user (the merge's third argument). */
const STATEMENT = 'I said so.';

describe('merging extracted memories with the stored ones', () => {
  it('adds what is new: stated ones confirmed, inferred ones not', () => {
    const plan = planMerge([], [said('Lives in Lisbon', 'home'), said('Is a parent', 'inference:parent', true)], STATEMENT);
    expect(plan.updates).toEqual([]);
    expect(plan.inserts.map((m) => [m.text, m.subjectKey, m.isInference, m.isConfirmed])).toEqual([
      ['Lives in Lisbon', 'home', false, true],
      ['Is a parent', 'inference:parent', true, false],
    ]);
  });

  it('leaves what imported history teaches unconfirmed, and confirms nothing stored through it', () => {
    const guess = stored('g', 'Is a parent', 'inference:parent', { isInference: true, isConfirmed: false });
    const candidates = [guess];
    const plan = planMerge(candidates, [said('Lives in Lisbon', 'home'), said('Is a parent', 'inference:parent')], STATEMENT);
    // Stated, it would be confirmed (and the guess too); from an import, neither is.
    expect(plan.inserts.map((m) => m.isConfirmed)).toEqual([true]);
    const imported = awaitingConfirmation(plan, candidates);
    expect(imported.inserts.map((m) => [m.text, m.isConfirmed])).toEqual([['Lives in Lisbon', false]]);
    expect(imported.updates.map((u) => [u.id, u.fields.isConfirmed])).toEqual(plan.updates.map((u) => [u.id, false]));
  });

  it('drops the same text, whatever its case or punctuation', () => {
    expect(planMerge([stored('a', 'Lives in Lisbon', 'home')], [said('lives in LISBON.', 'home')], STATEMENT)).toEqual({
      inserts: [],
      updates: [],
    });
  });

  it('updates the stored memory of the same subject (a contradiction)', () => {
    const plan = planMerge([stored('a', 'Lives in Lisbon', 'home')], [said('Lives in Porto', 'home')], STATEMENT);
    expect(plan.inserts).toEqual([]);
    expect(plan.updates).toEqual([
      { id: 'a', fields: expect.objectContaining({ text: 'Lives in Porto', normalizedText: 'lives in porto', isConfirmed: true }) },
    ]);
  });

  it('never lets a guess overwrite what the user said or confirmed', () => {
    const firm = [
      stored('a', 'Is married', 'inference:married'),
      stored('b', 'Is a parent', 'inference:parent', { isInference: true, isConfirmed: true }),
    ];
    expect(
      planMerge(firm, [said('Is engaged', 'inference:married', true), said('Is a grandparent', 'inference:parent', true)], STATEMENT),
    ).toEqual({
      inserts: [],
      updates: [],
    });
    const guess = stored('c', 'Is single', 'inference:married', { isInference: true, isConfirmed: false });
    expect(planMerge([guess], [said('Is married', 'inference:married', true)], STATEMENT).updates).toHaveLength(1);
  });

  it('turns a guess the user now states into theirs, confirmed', () => {
    const guess = stored('a', 'Is a parent', 'inference:parent', { isInference: true, isConfirmed: false });
    expect(planMerge([guess], [said('Is a parent', null)], STATEMENT).updates).toEqual([
      { id: 'a', fields: expect.objectContaining({ isInference: false, isConfirmed: true }) },
    ]);
  });

  it('lets a later statement of the same exchange win, as one memory', () => {
    const plan = planMerge([], [said('Lives in Lisbon', 'home'), said('Lives in Porto', 'home')], STATEMENT);
    expect(plan.inserts.map((m) => m.text)).toEqual(['Lives in Porto']);
  });

  it('never replaces a memory with a less specific one, nor adds one beside it', () => {
    const rex = stored('a', 'Has a dog named Rex', 'pet:dog', { normalizedText: 'has a dog named rex' });
    expect(planMerge([rex], [said('Has a dog', 'pet:dog')], 'I have a dog.')).toEqual({ inserts: [], updates: [] });
    // Whatever subject a model gives it.
    expect(planMerge([rex], [said('Has a dog', 'pet:dogs')], 'I have a dog.')).toEqual({ inserts: [], updates: [] });
    expect(planMerge([rex], [said('Has a dog', null)], 'I have a dog.')).toEqual({ inserts: [], updates: [] });
    // A more specific or a different one is a correction.
    const dog = stored('b', 'Has a dog', 'pet:dog', { normalizedText: 'has a dog' });
    expect(planMerge([dog], [said('Has a dog named Rex', 'pet:dog')], "My dog's name is Rex.").updates).toEqual([
      { id: 'b', fields: expect.objectContaining({ text: 'Has a dog named Rex' }) },
    ]);
    expect(planMerge([rex], [said('Has a dog named Max', 'pet:dog')], 'Actually my dog is called Max.').updates).toEqual([
      { id: 'a', fields: expect.objectContaining({ text: 'Has a dog named Max' }) },
    ]);
  });

  it('lets nothing read in a question, a hypothetical, a third party or a denial overwrite what the user said', () => {
    const rex = stored('a', 'Has a dog named Rex', 'pet:dog', { normalizedText: 'has a dog named rex' });
    for (const message of [
      'Is my dog called Max?',
      'If my dog were called Max, would he come?',
      "My friend's dog is Max.",
      "My sister's dog is called Max.",
      "My dog isn't called Max.",
    ])
      expect([message, planMerge([rex], [said('Has a dog named Max', 'pet:dog')], message)]).toEqual([
        message,
        { inserts: [], updates: [] },
      ]);
    // What such a message adds that is new is still stored, and a guess still gives way.
    const guess = stored('b', 'Has a cat', 'pet:cat', { isInference: true, isConfirmed: false });
    const plan = planMerge(
      [rex, guess],
      [said('Has a cat named Luna', 'pet:cat'), said('Speaks French', 'language:french')],
      'Is my cat Luna French?',
    );
    expect(plan.updates).toEqual([{ id: 'b', fields: expect.objectContaining({ text: 'Has a cat named Luna' }) }]);
    expect(plan.inserts.map((m) => m.text)).toEqual(['Speaks French']);
  });

  it('tells a less specific text from a different or an opposite one', () => {
    expect(isLessSpecific('has a dog', 'has a dog named rex')).toBe(true);
    expect(isLessSpecific('lives in portugal', 'lives in porto portugal')).toBe(true);
    expect(isLessSpecific('has a dog named rex', 'has a dog')).toBe(false);
    expect(isLessSpecific('has a dog named max', 'has a dog named rex')).toBe(false);
    expect(isLessSpecific('lives in porto', 'lives in porto')).toBe(false);
    expect(isLessSpecific('is vegan', 'is not vegan')).toBe(false);
    expect(isLessSpecific('eats meat', 'never eats meat')).toBe(false);
  });
});
