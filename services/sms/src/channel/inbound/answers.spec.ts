import type { FileReference } from '@app/contracts/chat';
import { FakeTransaction, inboundText } from '../channel.fakes';
import type { AssistantClient } from '../assistant.client';
import type { ServiceNumbers } from '../service-numbers';
import type { NumbersRepository } from '../store/numbers.repository';
import { Allowance } from './allowance';
import { inboundContext, type InboundContext } from './inbound-context';
import { KeywordAnswer } from './keyword.answer';
import type { MmsMedia, PictureResult } from './mms-media';
import { ReplyAnswer } from './reply.answer';

const PHONE = '+14155550100';
const ASSISTANT = '+15005550006';
const service = { provider: 'twilio' } as ServiceNumbers;

const contextOf = (body: string, media: { url: string; contentType: string }[] = []) => {
  const ctx = inboundContext(inboundText({ from: PHONE, to: ASSISTANT, body, media }));
  ctx.account = { userId: 'u1', name: null };
  return ctx;
};

async function commit(ctx: InboundContext, tx = new FakeTransaction()) {
  for (const write of ctx.writes.splice(0)) await write(tx);
  return tx;
}

describe('KeywordAnswer', () => {
  const answer = new KeywordAnswer(
    { ASSISTANT_NAME: 'Assistant', SMS_MONTHLY_ALLOWANCE: 300, SMS_KEYWORD_REPLY_WINDOW_HOURS: 24 },
    service,
  );

  it('confirms a STOP once, and a START once', async () => {
    const tx = new FakeTransaction();
    for (const keyword of ['stop', 'stop', 'start', 'start'] as const) {
      const ctx = contextOf(keyword);
      answer.run(ctx, keyword);
      await commit(ctx, tx);
    }
    expect(tx.bodiesTo(PHONE)).toEqual([expect.stringMatching(/unsubscribed/), expect.stringMatching(/subscribed again/)]);
    expect(tx.queued.every((t) => t.purpose === 'confirmation' && t.from === ASSISTANT)).toBe(true);
  });

  it('answers HELP once per window, however often it comes', async () => {
    const tx = new FakeTransaction();
    const statuses = [];
    for (let i = 0; i < 120; i++) {
      const ctx = contextOf('HELP');
      answer.run(ctx, 'help');
      await commit(ctx, tx);
      statuses.push(ctx.status);
    }
    expect(tx.queued).toHaveLength(1);
    expect(tx.bodiesTo(PHONE)[0]).toMatch(/Text STOP to stop/);
    expect(statuses.filter((s) => s === 'helped')).toHaveLength(1);
  });
});

describe('ReplyAnswer', () => {
  function replyWith({
    used = 0,
    answer = 'The capital of France is **Paris**.',
    picture,
  }: { used?: number; answer?: string; picture?: PictureResult } = {}) {
    const asked: { content: string; files: FileReference[] }[] = [];
    const assistant: Pick<AssistantClient, 'newConversation' | 'reply' | 'mediaUrl' | 'storeMedia'> = {
      newConversation: async () => 'chat-1',
      reply: async (_caller, _chat, content, files = []) => {
        asked.push({ content, files });
        return { text: answer, images: [], error: null };
      },
      mediaUrl: async () => null,
      storeMedia: async () => ({ object_store_object_id: 'file-1', mime_type: 'image/jpeg' }),
    };
    const numbers: Pick<NumbersRepository, 'thread' | 'saveThread'> = { thread: async () => 'chat-1', saveThread: async () => 'chat-1' };
    const media: Pick<MmsMedia, 'picture'> = { picture: async () => picture ?? { ok: false, reason: 'unreachable' } };
    const config = { ASSISTANT_NAME: 'Assistant', SMS_MAX_SEGMENTS: 1 };
    const allowance = new Allowance(
      { ...config, SMS_MONTHLY_ALLOWANCE: 10, SMS_USAGE_NOTICE_SHARE: 0.8, SMS_CREDIT_NOTICE_BELOW: 0 },
      { usage: async () => used },
    );
    return { reply: new ReplyAnswer(config, assistant, numbers, media, allowance, service), asked };
  }

  it("answers in the thread's conversation, written for a phone, and counts one text", async () => {
    const { reply } = replyWith();
    const ctx = contextOf('What is the capital of France?');
    await reply.run(ctx);
    const tx = await commit(ctx);
    expect(ctx.status).toBe('answered');
    expect(tx.queued.map((t) => [t.to, t.from, t.body, t.purpose])).toEqual([
      [PHONE, ASSISTANT, 'The capital of France is Paris.', 'reply'],
    ]);
    expect([...tx.usage.values()]).toEqual([1]);
  });

  it('past the allowance asks nothing of the model and owes only the limit notice', async () => {
    const { reply, asked } = replyWith({ used: 10 });
    const ctx = contextOf('Another question?');
    await reply.run(ctx);
    const tx = await commit(ctx);
    expect(ctx.status).toBe('over_allowance');
    expect(asked).toEqual([]);
    expect(tx.bodiesTo(PHONE)).toEqual([expect.stringMatching(/reached your 10 texts/)]);
  });

  it('ends a long reply at a sentence, never cutting it mid-thought, and points to the rest', async () => {
    const long = 'Paris is the capital of France. It is on the Seine. '.repeat(10).trim();
    const { reply } = replyWith({ answer: long });
    const ctx = contextOf('Tell me about Paris');
    await reply.run(ctx);
    const [body] = (await commit(ctx)).bodiesTo(PHONE);
    expect(body.length).toBeLessThanOrEqual(160);
    expect(body).toMatch(/\.\s*\(more in the app\)$/);
  });

  it('tells the texter once that a picture could not be read, and answers their words', async () => {
    const { reply, asked } = replyWith({ picture: { ok: false, reason: 'too_large' } });
    const ctx = contextOf('And this?', [{ url: 'https://api.twilio.example/media/1', contentType: 'image/jpeg' }]);
    await reply.run(ctx);
    const tx = await commit(ctx);
    expect(asked).toEqual([{ content: 'And this?', files: [] }]);
    expect(tx.queued.map((t) => t.purpose)).toEqual(['notice', 'reply']);
    expect(tx.bodiesTo(PHONE)[0]).toMatch(/could not read the picture/);
  });

  it('gives the model a picture that could be read', async () => {
    const { reply, asked } = replyWith({ picture: { ok: true, data: Buffer.from('jpeg'), contentType: 'image/jpeg' } });
    const ctx = contextOf('', [{ url: 'https://api.twilio.example/media/1', contentType: 'image/jpeg' }]);
    await reply.run(ctx);
    expect(asked).toEqual([
      { content: 'What is in this picture?', files: [{ object_store_object_id: 'file-1', mime_type: 'image/jpeg' }] },
    ]);
  });
});
