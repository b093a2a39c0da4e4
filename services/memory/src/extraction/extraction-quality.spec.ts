import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { normalizeText } from './memory-extractor';
import { applyPlan, planMerge, type MergeCandidate } from './merge-plan';
import { RuleBasedExtractor } from './rule-based.extractor';

const FixtureSchema = z.object({
  description: z.string(),
  conversations: z
    .array(
      z.object({
        id: z.string(),
        turns: z.array(z.string().min(1)).min(1),
        expected: z.array(z.string()),
        held_out: z.boolean().optional(),
      }),
    )
    .min(1),
});
type Conversation = z.infer<typeof FixtureSchema>['conversations'][number];

/** The floors this extractor reaches on the whole set (the exact figures are printed). */
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

function report(label: string, s: Score): string {
  return [
    `${label}: ${s.conversations} conversations, ${s.expected} expected memories, ${s.produced} stored`,
    `  precision ${precisionOf(s).toFixed(3)} (${s.truePositives}/${s.produced})   recall ${recallOf(s).toFixed(3)} (${s.truePositives}/${s.expected})`,
    `  missed (${s.misses.length}):${s.misses.map((m) => `\n    ${m}`).join('')}`,
    `  wrong (${s.wrong.length}):${s.wrong.map((m) => `\n    ${m}`).join('')}`,
  ].join('\n');
}

/**
 * The offline extractor against the scripted conversations of fixtures/conversations.json: each
 * conversation is played turn by turn through extraction and the real merge, and what is stored at
 * the end is compared with what should be (precision: stored memories that are right; recall:
 * expected memories that are stored).
 */
describe('offline extraction on the scripted conversations', () => {
  const fixture = FixtureSchema.parse(JSON.parse(readFileSync(join(__dirname, 'fixtures/conversations.json'), 'utf8')));
  const extractor = new RuleBasedExtractor();

  async function play(turns: string[]): Promise<MergeCandidate[]> {
    let stored: MergeCandidate[] = [];
    let seq = 0;
    for (const userText of turns) {
      const extracted = await extractor.extract({ userText, assistantText: '' });
      stored = applyPlan(stored, planMerge(stored, extracted), (fields) => ({ id: `m${++seq}`, ...fields }));
    }
    return stored;
  }

  async function score(conversations: Conversation[]): Promise<Score> {
    const s: Score = { conversations: conversations.length, truePositives: 0, produced: 0, expected: 0, misses: [], wrong: [] };
    for (const conversation of conversations) {
      const stored = await play(conversation.turns);
      const want = new Set(conversation.expected.map(normalizeText));
      s.produced += stored.length;
      s.expected += want.size;
      for (const memory of stored) {
        if (want.has(memory.normalizedText)) s.truePositives++;
        else s.wrong.push(`${conversation.id}: "${memory.text}"`);
      }
      const got = new Set(stored.map((m) => m.normalizedText));
      for (const text of conversation.expected) if (!got.has(normalizeText(text))) s.misses.push(`${conversation.id}: "${text}"`);
    }
    return s;
  }

  it(`reaches precision >= ${PRECISION_FLOOR} and recall >= ${RECALL_FLOOR} on the whole set, and prints the held-out figures apart`, async () => {
    const all = await score(fixture.conversations);
    const heldOut = await score(fixture.conversations.filter((c) => c.held_out));
    console.log(`${report('Offline extractor, whole set', all)}\n${report('Held-out part (never tuned on)', heldOut)}`);
    expect(precisionOf(all)).toBeGreaterThanOrEqual(PRECISION_FLOOR);
    expect(recallOf(all)).toBeGreaterThanOrEqual(RECALL_FLOOR);
  });
});
