import type { ExtractedMemory } from './memory-extractor';
import { planMerge, type MergeCandidate } from './merge-plan';

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

describe('merging extracted memories with the stored ones', () => {
  it('adds what is new: stated ones confirmed, inferred ones not', () => {
    const plan = planMerge([], [said('Lives in Lisbon', 'home'), said('Is a parent', 'inference:parent', true)]);
    expect(plan.updates).toEqual([]);
    expect(plan.inserts.map((m) => [m.text, m.subjectKey, m.isInference, m.isConfirmed])).toEqual([
      ['Lives in Lisbon', 'home', false, true],
      ['Is a parent', 'inference:parent', true, false],
    ]);
  });

  it('drops the same text, whatever its case or punctuation', () => {
    expect(planMerge([stored('a', 'Lives in Lisbon', 'home')], [said('lives in LISBON.', 'home')])).toEqual({ inserts: [], updates: [] });
  });

  it('updates the stored memory of the same subject (a contradiction)', () => {
    const plan = planMerge([stored('a', 'Lives in Lisbon', 'home')], [said('Lives in Porto', 'home')]);
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
    expect(planMerge(firm, [said('Is engaged', 'inference:married', true), said('Is a grandparent', 'inference:parent', true)])).toEqual({
      inserts: [],
      updates: [],
    });
    const guess = stored('c', 'Is single', 'inference:married', { isInference: true, isConfirmed: false });
    expect(planMerge([guess], [said('Is married', 'inference:married', true)]).updates).toHaveLength(1);
  });

  it('turns a guess the user now states into theirs, confirmed', () => {
    const guess = stored('a', 'Is a parent', 'inference:parent', { isInference: true, isConfirmed: false });
    expect(planMerge([guess], [said('Is a parent', null)]).updates).toEqual([
      { id: 'a', fields: expect.objectContaining({ isInference: false, isConfirmed: true }) },
    ]);
  });

  it('lets a later statement of the same exchange win, as one memory', () => {
    const plan = planMerge([], [said('Lives in Lisbon', 'home'), said('Lives in Porto', 'home')]);
    expect(plan.inserts.map((m) => m.text)).toEqual(['Lives in Porto']);
  });
});
