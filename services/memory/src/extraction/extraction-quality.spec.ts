import { FakeOpenAI } from '@app/testing';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { normalizeText, type MemoryExtractor } from './memory-extractor';
import { planMerge, type MergeCandidate } from './merge-plan';
import { applyPlan } from '../testing/merge-plan.fake';
import { ModelExtractor } from './model.extractor';
import { RuleBasedExtractor } from './rule-based.extractor';

const CATEGORIES = ['statements', 'corrections', 'questions', 'hypotheticals', 'third-parties', 'negations', 'small-talk'] as const;

/** What the scripted model answers to one turn: `[text, subject]`, or with "inference" or "taste". */
const ModelMemorySchema = z.union([
  z.tuple([z.string(), z.string().nullable()]),
  z.tuple([z.string(), z.string().nullable(), z.enum(['inference', 'taste'])]),
]);

const FixtureSchema = z.object({
  description: z.string(),
  conversations: z
    .array(
      z
        .object({
          id: z.string(),
          category: z.enum(CATEGORIES),
          turns: z.array(z.string().min(1)).min(1),
          expected: z.array(z.string()),
          held_out: z.boolean().optional(),
          model: z.array(z.array(ModelMemorySchema)).optional(),
        })
        .refine((c) => !c.model || c.model.length === c.turns.length, { message: 'one model answer per turn' }),
    )
    .min(1),
});
type Conversation = z.infer<typeof FixtureSchema>['conversations'][number];

/** The floors the offline rules reach on the whole set (the exact figures are printed). */
const PRECISION_FLOOR = 0.95;
const RECALL_FLOOR = 0.85;

interface Score {
  conversations: number;
  truePositives: number;
  produced: number;
  expected: number;
  misses: string[];
  wrong: string[];
}

const precisionOf = (s: Score) => (s.produced ? s.truePositives / s.produced : 1);
const recallOf = (s: Score) => (s.expected ? s.truePositives / s.expected : 1);
const emptyScore = (): Score => ({ conversations: 0, truePositives: 0, produced: 0, expected: 0, misses: [], wrong: [] });

function add(into: Score, s: Score): void {
  into.conversations += s.conversations;
  into.truePositives += s.truePositives;
  into.produced += s.produced;
  into.expected += s.expected;
  into.misses.push(...s.misses);
  into.wrong.push(...s.wrong);
}

function report(label: string, s: Score): string {
  return [
    `${label}: ${s.conversations} conversations, ${s.expected} expected memories, ${s.produced} stored`,
    `  precision ${precisionOf(s).toFixed(3)} (${s.truePositives}/${s.produced})   recall ${recallOf(s).toFixed(3)} (${s.truePositives}/${s.expected})`,
    `  missed (${s.misses.length}):${s.misses.map((m) => `\n    ${m}`).join('')}`,
    `  wrong (${s.wrong.length}):${s.wrong.map((m) => `\n    ${m}`).join('')}`,
  ].join('\n');
}

/** One line per category, then the whole set: the table the README quotes. */
function table(title: string, perCategory: Map<string, Score>, all: Score): string {
  const row = (label: string, s: Score) =>
    `  ${label.padEnd(14)} ${String(s.conversations).padStart(4)} ${precisionOf(s).toFixed(3).padStart(10)} ${recallOf(s).toFixed(3).padStart(8)}`;
  return [
    `${title}`,
    `  ${'category'.padEnd(14)} ${'conv'.padStart(4)} ${'precision'.padStart(10)} ${'recall'.padStart(8)}`,
    ...[...perCategory].map(([category, s]) => row(category, s)),
    row('all', all),
  ].join('\n');
}

/**
 * The extraction against the scripted conversations of fixtures/conversations.json: each
 * conversation is played turn by turn through extraction and the real merge, and what is stored at
 * the end is compared with what should be (precision: stored memories that are right; recall:
 * expected memories that are stored). Played twice: by the offline rules (every conversation), and
 * by the model path (the conversations with scripted model answers: the real SDK against the fake
 * OpenAI server, then the same merge, which must refuse the model's lossy or unfounded updates).
 */
describe('extraction on the scripted conversations', () => {
  const fixture = FixtureSchema.parse(JSON.parse(readFileSync(join(__dirname, 'fixtures/conversations.json'), 'utf8')));
  const openai = new FakeOpenAI({ apiKey: 'sk-quality' });

  beforeAll(async () => {
    await openai.start();
  });
  afterAll(async () => {
    await openai.stop();
  });

  async function play(extractor: MemoryExtractor, conversation: Conversation): Promise<MergeCandidate[]> {
    let stored: MergeCandidate[] = [];
    let seq = 0;
    for (const [turn, userText] of conversation.turns.entries()) {
      const answer = extractor.name === 'model' ? conversation.model?.[turn] : undefined;
      if (answer)
        openai.script(
          'responses',
          JSON.stringify({
            memories: answer.map(([text, subject, kind]) => ({
              text,
              subject,
              is_inference: kind === 'inference',
              is_fact: kind !== 'taste',
            })),
          }),
        );
      const known = stored.map((m) => ({ text: m.text, subject: m.subjectKey }));
      const extracted = await extractor.extract({ userText, assistantText: '' }, known);
      stored = applyPlan(stored, planMerge(stored, extracted, userText), (fields) => ({ id: `m${++seq}`, ...fields }));
    }
    return stored;
  }

  async function score(extractor: MemoryExtractor, conversation: Conversation): Promise<Score> {
    const s: Score = { conversations: 1, truePositives: 0, produced: 0, expected: 0, misses: [], wrong: [] };
    const stored = await play(extractor, conversation);
    const want = new Set(conversation.expected.map(normalizeText));
    s.produced += stored.length;
    s.expected += want.size;
    for (const memory of stored) {
      if (want.has(memory.normalizedText)) s.truePositives++;
      else s.wrong.push(`${conversation.id}: "${memory.text}"`);
    }
    const got = new Set(stored.map((m) => m.normalizedText));
    for (const text of conversation.expected) if (!got.has(normalizeText(text))) s.misses.push(`${conversation.id}: "${text}"`);
    return s;
  }

  async function scoreAll(extractor: MemoryExtractor, conversations: Conversation[]) {
    const all = emptyScore();
    const heldOut = emptyScore();
    const perCategory = new Map<string, Score>(CATEGORIES.map((c) => [c, emptyScore()]));
    for (const conversation of conversations) {
      const s = await score(extractor, conversation);
      add(all, s);
      add(perCategory.get(conversation.category)!, s);
      if (conversation.held_out) add(heldOut, s);
    }
    for (const [category, s] of perCategory) if (!s.conversations) perCategory.delete(category);
    return { all, heldOut, perCategory };
  }

  it(`offline rules: precision >= ${PRECISION_FLOOR} and recall >= ${RECALL_FLOOR} on the whole set; nothing but a statement changes a memory`, async () => {
    const { all, heldOut, perCategory } = await scoreAll(new RuleBasedExtractor(), fixture.conversations);
    console.log(
      [
        table('Offline extractor, per category', perCategory, all),
        report('Offline extractor, whole set', all),
        report('Held-out part (never tuned on)', heldOut),
      ].join('\n'),
    );
    expect(precisionOf(all)).toBeGreaterThanOrEqual(PRECISION_FLOOR);
    expect(recallOf(all)).toBeGreaterThanOrEqual(RECALL_FLOOR);
    // What the user said survives every question, hypothetical, third party's fact and negation.
    for (const category of ['questions', 'hypotheticals', 'third-parties', 'negations'] as const)
      expect([category, perCategory.get(category)!.wrong]).toEqual([category, []]);
  });

  it('model path: the merge refuses every lossy or unfounded update the scripted model proposes', async () => {
    const extractor = new ModelExtractor({
      provider: 'openai',
      apiKey: 'sk-quality',
      baseURL: openai.baseURL,
      model: 'memory-model',
      timeoutMs: 10_000,
    });
    const scripted = fixture.conversations.filter((c) => c.model);
    const { all, perCategory } = await scoreAll(extractor, scripted);
    console.log([table('Model path (scripted model), per category', perCategory, all), report('Model path, whole set', all)].join('\n'));
    expect(openai.pending('responses')).toBe(0);
    // The script is right except for the mistakes the merge must refuse: nothing wrong, nothing lost.
    expect(all.wrong).toEqual([]);
    expect(all.misses).toEqual([]);
  });
});
