import { LlmError } from '../llm/llm-error';
import type { LlmProvider } from '../llm/llm-provider';
import { aConversation } from '../testing/builders';
import { FakeChatRepository } from '../testing/chat-repository.fake';
import { titleFrom } from './title-from';
import { TitleService } from './title.service';

type Complete = LlmProvider['complete'];

/** A model that answers titles as told, and remembers what it was asked. */
class FakeTitleModel implements Pick<LlmProvider, 'complete'> {
  readonly asked: Parameters<Complete>[0][] = [];
  constructor(private answer: (prompt: string) => Promise<string> = async () => 'Spring in Lisbon') {}

  complete: Complete = async (request) => {
    this.asked.push(request);
    return this.answer(request.prompt);
  };

  answers(answer: (prompt: string) => Promise<string>): void {
    this.answer = answer;
  }
}

const exchange = (fields: { chat_id?: string; user_id?: string; user_text?: string } = {}) => ({
  user_id: 'owner',
  chat_id: 'chat',
  user_message_id: 'u1',
  assistant_message_id: 'a1',
  user_text: 'Where should I go in April? Somewhere warm.',
  assistant_text: 'Lisbon.',
  ...fields,
});

describe('titles after the first complete exchange', () => {
  let repo: FakeChatRepository;
  let model: FakeTitleModel;
  let titles: TitleService;

  beforeEach(() => {
    repo = new FakeChatRepository().seed(aConversation({ id: 'chat', title: null }));
    model = new FakeTitleModel();
    titles = new TitleService(repo, model, { CHAT_MODEL: undefined, CHAT_FAST_MODEL: 'fast' });
  });
  const titleOf = (id = 'chat') => repo.conversations.get(id)?.title;

  it("asks the configured model (else the fast one) for a title of the user's message", async () => {
    expect(await titles.afterExchange('exchange:a1', exchange())).toBe(true);
    expect(titleOf()).toBe('Spring in Lisbon');
    expect(model.asked).toEqual([
      expect.objectContaining({
        model: 'fast',
        prompt: 'Where should I go in April? Somewhere warm.',
        system: expect.stringContaining('at most 6 words'),
      }),
    ]);
    const local = new TitleService(repo.seed(aConversation({ id: 'other' })), model, { CHAT_MODEL: 'llama3.2', CHAT_FAST_MODEL: 'fast' });
    await local.afterExchange('exchange:b1', exchange({ chat_id: 'other' }));
    expect(model.asked[1].model).toBe('llama3.2');
  });

  it('is idempotent: a redelivered event asks nothing and changes nothing', async () => {
    await titles.afterExchange('exchange:a1', exchange());
    model.answers(async () => 'Another title');
    expect(await titles.afterExchange('exchange:a1', exchange())).toBe(false);
    expect(titleOf()).toBe('Spring in Lisbon');
    expect(model.asked).toHaveLength(1);
  });

  it('applies an event once even when the title was cleared in between', async () => {
    await titles.afterExchange('exchange:a1', exchange());
    repo.conversations.get('chat')!.title = null;
    expect(await titles.afterExchange('exchange:a1', exchange())).toBe(false);
    expect(titleOf()).toBeNull();
  });

  it('leaves a conversation that has a title alone, without asking the model', async () => {
    repo.conversations.get('chat')!.title = 'Mine';
    expect(await titles.afterExchange('exchange:a2', exchange())).toBe(false);
    expect(titleOf()).toBe('Mine');
    expect(model.asked).toEqual([]);
  });

  it("keeps the user's own title when they rename the conversation while the model thinks", async () => {
    model.answers(async () => {
      repo.conversations.get('chat')!.title = 'Renamed meanwhile';
      return 'Spring in Lisbon';
    });
    expect(await titles.afterExchange('exchange:a1', exchange())).toBe(false);
    expect(titleOf()).toBe('Renamed meanwhile');
  });

  it("titles nothing for a conversation that is gone or someone else's", async () => {
    expect(await titles.afterExchange('exchange:x', exchange({ chat_id: 'deleted' }))).toBe(false);
    expect(await titles.afterExchange('exchange:y', exchange({ user_id: 'stranger' }))).toBe(false);
    expect(titleOf()).toBeNull();
    expect(model.asked).toEqual([]);
  });

  it('cleans quotes, spaces and a final period off the answer, and cuts it at 80 characters', async () => {
    model.answers(async () => '  "Spring in Lisbon."  ');
    await titles.afterExchange('exchange:a1', exchange());
    expect(titleOf()).toBe('Spring in Lisbon');
    repo.seed(aConversation({ id: 'long' }));
    model.answers(async () => 'x'.repeat(200));
    await titles.afterExchange('exchange:b1', exchange({ chat_id: 'long' }));
    expect(titleOf('long')).toHaveLength(80);
  });

  it("falls back to the message's first words when the model fails or answers nothing", async () => {
    model.answers(async () => {
      throw new LlmError('unavailable', 'The model could not be reached. Please try again.');
    });
    await titles.afterExchange('exchange:a1', exchange());
    expect(titleOf()).toBe('Where should I go in April?'.replace('?', ''));
    repo.seed(aConversation({ id: 'empty' }));
    model.answers(async () => ' "" ');
    await titles.afterExchange('exchange:b1', exchange({ chat_id: 'empty', user_text: 'plan a trip to Porto' }));
    expect(titleOf('empty')).toBe('Plan a trip to Porto');
  });

  it('gives the model a bounded prompt and a deadline', async () => {
    await titles.afterExchange('exchange:a1', exchange({ user_text: 'y'.repeat(5_000) }));
    expect(model.asked[0].prompt).toHaveLength(2_000);
    expect(model.asked[0].signal).toBeInstanceOf(AbortSignal);
    expect(model.asked[0].signal.aborted).toBe(false);
  });

  it('lets a database failure through, so that the event is delivered again', async () => {
    repo.fail('titleOnce');
    await expect(titles.afterExchange('exchange:a1', exchange())).rejects.toThrow('Connection terminated');
    repo.heal('titleOnce');
    expect(await titles.afterExchange('exchange:a1', exchange())).toBe(true);
  });
});

describe('a title from the words of the message (the offline model, the fallback)', () => {
  it('takes the first sentence, without a hanging word', () => {
    expect(titleFrom('I moved to Lisbon and I am vegetarian. What should I cook tonight?')).toBe('I moved to Lisbon');
    expect(titleFrom('plan a trip to Lisbon')).toBe('Plan a trip to Lisbon');
    expect(titleFrom('Can you help me write a cover letter for a job in Porto?')).toBe('Can you help me write a cover');
    expect(titleFrom('Tell me about the history of the')).toBe('Tell me about the history');
  });

  it('keeps two words even when they hang, and cuts a long word at 60 characters', () => {
    expect(titleFrom('And the')).toBe('And the');
    expect(titleFrom('z'.repeat(100))).toBe(`${'Z'}${'z'.repeat(58)}…`);
  });

  it('names an empty message plainly', () => {
    expect(titleFrom('   ')).toBe('New conversation');
    expect(titleFrom('?!')).toBe('New conversation');
  });
});
