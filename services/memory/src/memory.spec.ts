import type { Caller } from '@app/contracts';
import { MEMORY_NOT_FOUND } from '@app/contracts/memory';
import { AppLogger, DomainError, type PublicOf } from '@app/platform';
import { extractorOf, providerOf, type MemoryConfig } from './config';
import { ExtractionService } from './extraction/extraction.service';
import { createExtractor } from './extraction/extractor.factory';
import { ExtractionAnswerError, ModelExtractor } from './extraction/model.extractor';
import type { Exchange, ExtractedMemory, KnownMemory, MemoryExtractor } from './extraction/memory-extractor';
import type { MergePlan } from './extraction/merge-plan';
import { applyPlan } from './testing/merge-plan.fake';
import { RuleBasedExtractor } from './extraction/rule-based.extractor';
import type { MemoriesRepository, MemorySource, SearchHit, StoredMemory } from './memories/memories.repository';
import { MemoriesService } from './memories/memories.service';
import { isAboutUser, rank, RetrievalService, scoreOf, searchWords } from './retrieval/retrieval.service';

const ALICE = '6f1c2a64-1b4e-4f7a-9c55-0c1d2e3f4a5b';
const BOB = '0b5f6a2e-9d1c-4e8b-8a7f-3c2d1e0f9a8b';
const CHAT = '11111111-2222-4333-8444-555555555555';
const MESSAGE = '66666666-7777-4888-8999-aaaaaaaaaaaa';
const callerOf = (userId: string | null): Caller => ({ user_id: userId, is_anon: true, session_id: 's', request_id: 'r' });
const DAY = 86_400_000;

/**
 * The repository's contract in memory. Full text is crudely imitated (a word matches a word of the
 * text; the rank grows with the matches), which is all the logic above it needs.
 */
class FakeMemoryStore implements PublicOf<MemoriesRepository> {
  readonly rows: StoredMemory[] = [];
  readonly appliedEvents = new Set<string>();
  private seq = 0;
  now = new Date('2026-01-10T12:00:00Z');

  add(userId: string, text: string, fields: Partial<StoredMemory> = {}): StoredMemory {
    const row: StoredMemory = {
      id: `00000000-0000-4000-8000-${String(++this.seq).padStart(12, '0')}`,
      userId,
      sourceChatId: null,
      sourceMessageId: null,
      text,
      normalizedText: text.toLowerCase(),
      subjectKey: null,
      isInference: false,
      isFact: true,
      isConfirmed: true,
      createdAt: this.now,
      updatedAt: this.now,
      removedAt: null,
      ...fields,
    };
    this.rows.push(row);
    return row;
  }

  private live(userId: string) {
    return this.rows.filter((m) => m.userId === userId && !m.removedAt);
  }

  async list(userId: string, sourceChatId?: string) {
    return this.live(userId)
      .filter((m) => !sourceChatId || m.sourceChatId === sourceChatId)
      .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime());
  }

  async update(userId: string, id: string, change: Partial<Pick<StoredMemory, 'text' | 'normalizedText' | 'isConfirmed'>>) {
    const row = this.live(userId).find((m) => m.id === id);
    if (!row) return null;
    Object.assign(row, change, { updatedAt: this.now });
    return { ...row };
  }

  async remove(userId: string, id: string) {
    const row = this.rows.find((m) => m.userId === userId && m.id === id);
    if (!row) return 'missing' as const;
    if (row.removedAt) return 'already-removed' as const;
    row.removedAt = this.now;
    return 'removed' as const;
  }

  async restore(userId: string, id: string, windowSeconds: number) {
    const row = this.rows.find((m) => m.userId === userId && m.id === id);
    if (!row) return null;
    if (row.removedAt && this.now.getTime() - row.removedAt.getTime() <= windowSeconds * 1000) row.removedAt = null;
    return row.removedAt ? null : { ...row };
  }

  async search(userId: string, words: string[], limit: number): Promise<SearchHit[]> {
    return this.live(userId)
      .map((memory) => {
        const own = new Set(memory.text.toLowerCase().match(/\p{L}+/gu));
        const matched = words.filter((w) => w.length > 2 && own.has(w)).length;
        return { memory, textRank: matched / 10 };
      })
      .filter((hit) => hit.textRank > 0)
      .sort((a, b) => b.textRank - a.textRank)
      .slice(0, limit);
  }

  async relevant(userId: string, words: string[], candidates: number, latest: number) {
    return { hits: await this.search(userId, words, candidates), latest: latest > 0 ? await this.recent(userId, latest) : [] };
  }

  async known(userId: string, words: string[], candidates: number, latest: number) {
    const { hits, latest: recent } = await this.relevant(userId, words, candidates, latest);
    return { hits: hits.map((h) => h.memory), latest: recent };
  }

  async recent(userId: string, limit: number) {
    return this.live(userId)
      .sort((a, b) => Number(b.isConfirmed) - Number(a.isConfirmed) || b.updatedAt.getTime() - a.updatedAt.getTime())
      .slice(0, limit);
  }

  async applied(eventId: string) {
    return this.appliedEvents.has(eventId);
  }

  async merge(
    eventId: string,
    userId: string,
    source: MemorySource,
    _lookup: { subjects: string[]; texts: string[] },
    plan: (candidates: StoredMemory[]) => MergePlan,
  ) {
    if (this.appliedEvents.has(eventId)) return false;
    this.appliedEvents.add(eventId);
    const mine = this.live(userId);
    const changes = plan(mine.map((m) => ({ ...m })));
    const next = applyPlan(mine, changes, (fields) =>
      this.add(userId, fields.text, { ...fields, sourceChatId: source.chatId, sourceMessageId: source.messageId }),
    );
    for (const row of next) {
      const stored = this.rows.find((m) => m.id === row.id)!;
      if (changes.updates.some((u) => u.id === row.id))
        Object.assign(stored, row, { sourceChatId: source.chatId, sourceMessageId: source.messageId, updatedAt: this.now });
    }
    return true;
  }

  async eraseRemoved(windowSeconds: number) {
    const before = this.rows.length;
    const cutoff = this.now.getTime() - windowSeconds * 1000;
    this.rows.splice(0, this.rows.length, ...this.rows.filter((m) => !m.removedAt || m.removedAt.getTime() >= cutoff));
    return before - this.rows.length;
  }
}

/** An extractor that answers what it is told, or fails as it is told, and remembers what it was shown. */
class ScriptedExtractor implements MemoryExtractor {
  readonly name = 'model' as const;
  readonly usesKnownMemories = true;
  calls: { exchange: Exchange; known: KnownMemory[] }[] = [];
  constructor(private readonly answer: () => ExtractedMemory[]) {}
  async extract(exchange: Exchange, known: KnownMemory[]) {
    this.calls.push({ exchange, known });
    return this.answer();
  }
}

const silentLogger = new AppLogger({ service: 'memory', level: 'error', format: 'json', sink: () => undefined });

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

const exchange = (userText: string, userId = ALICE) => ({
  user_id: userId,
  chat_id: CHAT,
  user_message_id: MESSAGE,
  assistant_message_id: MESSAGE.replace(/a/g, 'b'),
  user_text: userText,
  assistant_text: 'Noted.',
});

describe('learning from an exchange', () => {
  const setup = (extractor: MemoryExtractor = new RuleBasedExtractor()) => {
    const store = new FakeMemoryStore();
    return { store, service: new ExtractionService(store, extractor, silentLogger) };
  };
  const texts = (store: FakeMemoryStore, userId = ALICE) =>
    store.rows.filter((m) => m.userId === userId && !m.removedAt).map((m) => m.text);

  it('stores what the user stated, confirmed, and what it inferred, unconfirmed, with the source message', async () => {
    const { store, service } = setup();
    expect(await service.learn('e1', exchange('I moved to Lisbon and my daughter is called Ana'))).toBe('applied');
    expect(store.rows.map((m) => [m.text, m.isInference, m.isConfirmed, m.sourceChatId, m.sourceMessageId])).toEqual([
      ['Lives in Lisbon', false, true, CHAT, MESSAGE],
      ['Has a daughter named Ana', false, true, CHAT, MESSAGE],
      ['Is a parent', true, false, CHAT, MESSAGE],
    ]);
  });

  it('applies the same event once, however often it is delivered', async () => {
    const extractor = new ScriptedExtractor(() => [{ text: 'Is vegetarian', subject: 'diet', isInference: false, isFact: true }]);
    const { store, service } = setup(extractor);
    expect(await service.learn('e1', exchange("I'm vegetarian"))).toBe('applied');
    expect(await service.learn('e1', exchange("I'm vegetarian"))).toBe('duplicate');
    expect(store.rows).toHaveLength(1);
    // The model is not asked again on a redelivery.
    expect(extractor.calls).toHaveLength(1);
  });

  it('applies the same event once with the offline rules too, with or without anything learnt', async () => {
    const { store, service } = setup();
    expect(await service.learn('e1', exchange("I'm vegetarian"))).toBe('applied');
    expect(await service.learn('e1', exchange("I'm vegetarian"))).toBe('duplicate');
    expect(await service.learn('e2', exchange('What is the capital of France?'))).toBe('applied');
    expect(await service.learn('e2', exchange('What is the capital of France?'))).toBe('duplicate');
    expect(texts(store)).toEqual(['Is vegetarian']);
  });

  it('updates the memory a correction is about instead of adding a second one', async () => {
    const { store, service } = setup();
    await service.learn('e1', exchange('I live in Paris'));
    const [paris] = store.rows;
    await service.learn('e2', exchange('Actually I moved to Porto'));
    expect(texts(store)).toEqual(['Lives in Porto']);
    expect(store.rows[0].id).toBe(paris.id);
  });

  it('drops a repeated statement and records the event anyway', async () => {
    const { store, service } = setup();
    await service.learn('e1', exchange("I'm vegetarian"));
    await service.learn('e2', exchange("As I said, I'm vegetarian"));
    expect(texts(store)).toEqual(['Is vegetarian']);
    expect(await service.learn('e3', exchange('What is the capital of France?'))).toBe('applied');
    expect(store.appliedEvents.has('e3')).toBe(true);
  });

  it("never touches another user's memories", async () => {
    const { store, service } = setup();
    await service.learn('e1', exchange('I live in Paris', BOB));
    await service.learn('e2', exchange('I moved to Porto'));
    expect(texts(store, BOB)).toEqual(['Lives in Paris']);
    expect(texts(store)).toEqual(['Lives in Porto']);
  });

  it('starts afresh on a subject whose memory the user removed', async () => {
    const { store, service } = setup();
    await service.learn('e1', exchange('I live in Paris'));
    store.rows[0].removedAt = store.now;
    await service.learn('e2', exchange('I live in Paris'));
    expect(store.rows.map((m) => [m.text, !!m.removedAt])).toEqual([
      ['Lives in Paris', true],
      ['Lives in Paris', false],
    ]);
  });

  it('shows a model extractor what is known, relevant first, and falls back to the rules when its answer is unusable', async () => {
    let fail = false;
    const extractor = new ScriptedExtractor(() => {
      if (fail) throw new ExtractionAnswerError('not JSON');
      return [{ text: 'Lives in Lisbon', subject: 'home', isInference: false, isFact: true }];
    });
    const { store, service } = setup(extractor);
    store.add(ALICE, 'Loves jazz', { subjectKey: 'preference:jazz' });
    await service.learn('e1', exchange('Any jazz clubs near me? I moved to Lisbon'));
    expect(extractor.calls[0].known).toEqual([{ text: 'Loves jazz', subject: 'preference:jazz' }]);
    fail = true;
    await service.learn('e2', exchange("I'm vegetarian"));
    expect(texts(store)).toEqual(['Loves jazz', 'Lives in Lisbon', 'Is vegetarian']);
  });

  it('lets a failed model call fail the delivery, so that the event is retried', async () => {
    const { store, service } = setup(
      new ScriptedExtractor(() => {
        throw new Error('connection refused');
      }),
    );
    await expect(service.learn('e1', exchange("I'm vegetarian"))).rejects.toThrow('connection refused');
    expect(store.appliedEvents.size).toBe(0);
  });

  it('learns nothing for an exchange whose user id is not an id', async () => {
    const { store, service } = setup();
    expect(await service.learn('e1', exchange("I'm vegetarian", 'system'))).toBe('skipped');
    expect(store.rows).toHaveLength(0);
  });
});

describe('the user controlling their memories', () => {
  const setup = () => {
    const store = new FakeMemoryStore();
    return { store, service: new MemoriesService(store, { MEMORY_RESTORE_WINDOW_SECONDS: 300 }) };
  };

  it('lists live memories newest first, of one conversation when asked, in the spec fields', async () => {
    const { store, service } = setup();
    store.add(ALICE, 'Lives in Lisbon', { sourceChatId: CHAT, updatedAt: new Date(store.now.getTime() - DAY) });
    store.add(ALICE, 'Is vegetarian', { sourceChatId: null });
    store.add(ALICE, 'Removed', { removedAt: store.now });
    store.add(BOB, 'Not yours');
    const all = await service.list(callerOf(ALICE), { user_preference_name: 'default' });
    expect(all.map((m) => m.text)).toEqual(['Is vegetarian', 'Lives in Lisbon']);
    expect(Object.keys(all[0]).sort()).toEqual([
      'is_confirmed',
      'is_fact',
      'is_inference',
      'removed_at',
      'source_chat_id',
      'source_message_id',
      'text',
      'updated_at',
      'user_memory_id',
    ]);
    expect((await service.list(callerOf(ALICE), { user_preference_name: 'default', source_chat_id: CHAT })).map((m) => m.text)).toEqual([
      'Lives in Lisbon',
    ]);
    expect(await service.list(callerOf(ALICE), { user_preference_name: 'work' })).toEqual([]);
  });

  it('edits the text and the confirmation of their own memories only', async () => {
    const { store, service } = setup();
    const guess = store.add(ALICE, 'Is a parent', { isInference: true, isConfirmed: false });
    const edited = await service.update(callerOf(ALICE), guess.id, { text: '  Is a   proud parent ', is_confirmed: true });
    expect(edited).toMatchObject({ text: 'Is a proud parent', is_confirmed: true, is_inference: true });
    expect(store.rows[0].normalizedText).toBe('is a proud parent');
    expect(await refusal(service.update(callerOf(BOB), guess.id, { is_confirmed: false }))).toMatchObject({
      status: 404,
      detail: MEMORY_NOT_FOUND,
    });
  });

  it('removes (twice is fine), restores within the window, and forgets for good after it', async () => {
    const { store, service } = setup();
    const memory = store.add(ALICE, 'Lives in Lisbon');
    expect(await refusal(service.remove(callerOf(BOB), memory.id))).toMatchObject({ status: 404 });
    expect(await service.remove(callerOf(ALICE), memory.id)).toEqual({ removed: true });
    expect(await service.remove(callerOf(ALICE), memory.id)).toEqual({ removed: true });
    expect(await service.list(callerOf(ALICE), { user_preference_name: 'default' })).toEqual([]);
    expect(await refusal(service.update(callerOf(ALICE), memory.id, { is_confirmed: true }))).toMatchObject({ status: 404 });
    expect(await refusal(service.restore(callerOf(BOB), memory.id))).toMatchObject({ status: 404 });
    expect((await service.restore(callerOf(ALICE), memory.id)).removed_at).toBeNull();
    await service.remove(callerOf(ALICE), memory.id);
    store.now = new Date(store.now.getTime() + 301_000);
    expect(await refusal(service.restore(callerOf(ALICE), memory.id))).toMatchObject({ status: 404 });
    expect(await service.eraseExpired()).toBe(1);
    expect(store.rows).toHaveLength(0);
  });

  it('needs a signed-in caller (a guest is one)', async () => {
    const { service } = setup();
    expect(await refusal(service.list(callerOf(null), { user_preference_name: 'default' }))).toMatchObject({ status: 401 });
  });
});

describe('retrieval before each reply', () => {
  const now = new Date('2026-01-10T12:00:00Z');
  const hit = (textRank: number, fields: Partial<StoredMemory> = {}): SearchHit => ({
    textRank,
    memory: { id: String(Math.random()), updatedAt: now, isConfirmed: true, ...fields } as StoredMemory,
  });

  it('searches the words of the query, without the operators', () => {
    expect(searchWords("Where's my daughter's school, or Ana's?")).toEqual(['where', 's', 'my', 'daughter', 'school', 'ana']);
  });

  it('knows a question about the user themselves', () => {
    for (const q of [
      'What do you know about me?',
      'who am I',
      "what's my name?",
      'Tell me about myself',
      'Do you remember what I told you?',
    ])
      expect(isAboutUser(q)).toBe(true);
    for (const q of ['What is the capital of France?', 'Tell me a joke', 'Remember to buy milk']) expect(isAboutUser(q)).toBe(false);
  });

  it('weighs the text rank by confirmation and recency', () => {
    expect(scoreOf(hit(0.1), now)).toBeCloseTo(0.1);
    expect(scoreOf(hit(0.1, { isConfirmed: false }), now)).toBeCloseTo(0.07);
    expect(scoreOf(hit(0.1, { updatedAt: new Date(now.getTime() - 90 * DAY) }), now)).toBeCloseTo(0.075);
    expect(scoreOf(hit(0.1, { updatedAt: new Date(now.getTime() - 9000 * DAY) }), now)).toBeCloseTo(0.05);
    const fresh = hit(0.1, { id: 'fresh' } as Partial<StoredMemory>);
    const old = hit(0.1, { id: 'old', updatedAt: new Date(now.getTime() - 365 * DAY) } as Partial<StoredMemory>);
    const guess = hit(0.1, { id: 'guess', isConfirmed: false } as Partial<StoredMemory>);
    const strong = hit(0.3, { id: 'strong', updatedAt: new Date(now.getTime() - 365 * DAY), isConfirmed: false } as Partial<StoredMemory>);
    expect(rank([old, guess, fresh, strong], now).map((m) => m.id)).toEqual(['strong', 'fresh', 'guess', 'old']);
  });

  it("answers the caller's live memories that match, best first, at most the limit", async () => {
    const store = new FakeMemoryStore();
    store.add(ALICE, 'Has a daughter named Ana');
    store.add(ALICE, 'Daughter Ana goes to school in Lisbon');
    store.add(ALICE, 'Lives in Lisbon', { removedAt: now });
    store.add(ALICE, 'Is vegetarian');
    store.add(BOB, 'Has a daughter named Eva');
    const service = new RetrievalService(store);
    const answer = await service.relevant(callerOf(ALICE), 'Which school for my daughter in Lisbon?', 1, now);
    expect(answer.memories.map((m) => m.text)).toEqual(['Daughter Ana goes to school in Lisbon']);
    expect((await service.relevant(callerOf(ALICE), 'Which school for my daughter in Lisbon?', 8, now)).memories).toHaveLength(2);
    expect((await service.relevant(callerOf(ALICE), 'Tell me a joke', 8, now)).memories).toEqual([]);
    expect((await service.relevant(callerOf(null), 'daughter', 8, now)).memories).toEqual([]);
  });

  it('answers "what do you know about me?" with the confirmed, then most recent, memories', async () => {
    const store = new FakeMemoryStore();
    store.add(ALICE, 'Is a parent', { isConfirmed: false, isInference: true });
    store.add(ALICE, 'Lives in Porto', { updatedAt: new Date(now.getTime() - DAY) });
    store.add(ALICE, 'Is vegetarian');
    const answer = await new RetrievalService(store).relevant(callerOf(ALICE), 'What do you know about me?', 8, now);
    expect(answer.memories.map((m) => [m.text, m.is_confirmed])).toEqual([
      ['Is vegetarian', true],
      ['Lives in Porto', true],
      ['Is a parent', false],
    ]);
  });
});

describe('configuration', () => {
  const base = { MEMORY_EXTRACTION_TIMEOUT_MS: 30_000, MEMORY_RESTORE_WINDOW_SECONDS: 300 } as MemoryConfig;

  it("follows the chat's provider rule, and extracts with the model whenever one is configured", () => {
    expect(providerOf(base)).toBe('offline');
    expect(providerOf({ ...base, OPENAI_API_KEY: 'k' })).toBe('openai');
    expect(providerOf({ ...base, OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' })).toBe('openai-compatible');
    expect(extractorOf(base)).toBe('rules');
    expect(extractorOf({ ...base, OPENAI_API_KEY: 'k' })).toBe('model');
    expect(extractorOf({ ...base, OPENAI_API_KEY: 'k', MEMORY_EXTRACTOR: 'rules' })).toBe('rules');
    expect(extractorOf({ ...base, MEMORY_EXTRACTOR: 'model' })).toBe('rules');
    expect(createExtractor(base)).toBeInstanceOf(RuleBasedExtractor);
    expect(createExtractor({ ...base, OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' })).toBeInstanceOf(ModelExtractor);
  });
});
