import { chatEnvSchema } from '../config';
import { chooseModel as choose } from './model-choice';

const chooseModel = (config: Parameters<typeof choose>[0], question: string) => choose(config, question, {});

const config = (env: Record<string, string> = {}) =>
  chatEnvSchema.parse({ CHAT_FAST_MODEL: 'fast', CHAT_REASONING_MODEL: 'thinker', ...env });

describe('which model answers', () => {
  it('is the configured model when there is one, never chosen', () => {
    expect(chooseModel(config({ CHAT_MODEL: 'llama3.2' }), 'Prove it step by step')).toEqual({
      model: 'llama3.2',
      reasoning: false,
      autoSelected: false,
    });
  });

  it('asks for reasoning when the configured model is the reasoning model', () => {
    expect(chooseModel(config({ CHAT_MODEL: 'thinker' }), 'Hi')).toEqual({ model: 'thinker', reasoning: true, autoSelected: false });
  });

  it('is the fast model when the automatic choice is off', () => {
    expect(chooseModel(config({ CHAT_AUTO_MODEL: 'false' }), 'Prove it step by step')).toEqual({
      model: 'fast',
      reasoning: false,
      autoSelected: false,
    });
  });

  it('is chosen automatically: the fast model for an everyday question', () => {
    for (const question of ['Where should I go in April?', 'Write me a poem about spring', 'Thanks!', 'Why is the sky blue?']) {
      expect(chooseModel(config(), question)).toEqual({ model: 'fast', reasoning: false, autoSelected: true });
    }
  });

  it('is chosen automatically: the reasoning model for a question that needs thinking', () => {
    const hard = [
      'Prove that there are infinitely many primes',
      'Can you derive the formula?',
      'Walk me through it step by step',
      'Explain it step-by-step',
      'Help me debug this',
      'Which algorithm fits here?',
      'Optimise this query',
      'How do I optimize my route?',
      'What is the complexity of quicksort?',
      'Calculate the interest over 10 years',
      'Solve this equation: x^2 = 2',
      'State the theorem of Pythagoras',
      'Why does my build fail?',
      'What are the trade-offs of SQL?',
      'Give me the tradeoff between speed and memory',
      'Compare Lisbon and Porto',
      'Look at this: ```const a = 1```',
      'x'.repeat(1_201),
    ];
    for (const question of hard)
      expect([question, chooseModel(config(), question)]).toEqual([question, { model: 'thinker', reasoning: true, autoSelected: true }]);
  });

  it("is the provider's only model when it serves one (the offline model): nothing is chosen", () => {
    expect(choose(config({ CHAT_MODEL: 'thinker' }), 'Prove it step by step', { fixedModel: 'offline' })).toEqual({
      model: 'offline',
      reasoning: false,
      autoSelected: false,
    });
    expect(choose(config(), 'Prove it step by step', { fixedModel: 'offline' })).toEqual({
      model: 'offline',
      reasoning: false,
      autoSelected: false,
    });
  });

  it('matches hints as whole words, in any case', () => {
    expect(chooseModel(config(), 'PROVE IT').model).toBe('thinker');
    expect(chooseModel(config(), 'The proven recipe').model).toBe('fast');
    expect(chooseModel(config(), 'x'.repeat(1_200)).model).toBe('fast');
  });
});
