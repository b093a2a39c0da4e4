import { FakeTransaction, inboundText } from '../channel.fakes';
import type { AssistantClient } from '../assistant.client';
import type { ServiceNumbers } from '../service-numbers';
import type { GroupsRepository, MemberRow, Membership } from '../store/groups.repository';
import { Allowance } from './allowance';
import { addressesAssistant, GroupAnswer } from './group.answer';
import { inboundContext } from './inbound-context';

const OLGA = '+14155550100';
const group: Membership = {
  id: 'family',
  channelUrl: 'family-1',
  name: 'Family',
  phoneNumber: '+15005550007',
  ownerUserId: 'u-olga',
  chatId: 'chat-family',
  createdAt: new Date(),
  label: 'Olga',
  serviceNumber: '+15005550007',
};
const members: MemberRow[] = [
  { phoneNumber: OLGA, userId: 'u-olga', label: 'Olga', serviceNumber: '+15005550007' },
  { phoneNumber: '+14155550101', userId: 'u-mia', label: 'Mia', serviceNumber: '+15005550008' },
  { phoneNumber: '+14155550102', userId: 'u-tom', label: 'Tom', serviceNumber: '+15005550007' },
  { phoneNumber: '+14155550103', userId: 'u-ann', label: 'Ann', serviceNumber: null },
];

function answerWith(used: number, allowance = 10) {
  const asked: { chatId: string; content: string; userId: string }[] = [];
  const assistant: Pick<AssistantClient, 'reply'> = {
    reply: async (caller, chatId, content) => {
      asked.push({ chatId, content, userId: caller.user_id! });
      return { text: '**Pasta** at 8.', images: [], error: null };
    },
  };
  const config = { ASSISTANT_NAME: 'Assistant', SMS_MAX_SEGMENTS: 3 };
  const allowanceOf = new Allowance(
    { ...config, SMS_MONTHLY_ALLOWANCE: allowance, SMS_USAGE_NOTICE_SHARE: 0.9, SMS_CREDIT_NOTICE_BELOW: 0 },
    { usage: async () => used },
  );
  // As the repository answers: members with a number for the group who did not text STOP.
  const groups: Pick<GroupsRepository, 'reachableMembers'> = { reachableMembers: async () => members.filter((m) => m.serviceNumber) };
  const answer = new GroupAnswer(config, groups, assistant, allowanceOf, { provider: 'twilio' } as ServiceNumbers);
  return { answer, asked };
}

const contextOf = (body: string) => {
  const ctx = inboundContext(inboundText({ from: OLGA, to: '+15005550007', body }));
  ctx.account = { userId: 'u-olga', name: 'Olga' };
  return ctx;
};

async function commit(ctx: ReturnType<typeof contextOf>) {
  const tx = new FakeTransaction();
  for (const write of ctx.writes.splice(0)) await write(tx);
  return tx;
}

describe('GroupAnswer', () => {
  it('relays to every other member with a number, each from their own number for the group, and counts each copy against the sender', async () => {
    const { answer, asked } = answerWith(0);
    const ctx = contextOf('Dinner at 8 tonight');
    await answer.run(ctx, group);
    expect(ctx.status).toBe('relayed');
    const tx = await commit(ctx);
    expect(tx.queued.map((t) => [t.to, t.from, t.body, t.purpose])).toEqual([
      ['+14155550101', '+15005550008', 'Olga: Dinner at 8 tonight', 'relay'],
      ['+14155550102', '+15005550007', 'Olga: Dinner at 8 tonight', 'relay'],
    ]);
    expect([...tx.usage.values()]).toEqual([2]);
    expect(tx.groupMessages).toEqual([expect.objectContaining({ groupId: 'family', senderLabel: 'Olga', body: 'Dinner at 8 tonight' })]);
    expect(ctx.followUp).toBeNull();
    expect(asked).toEqual([]);
  });

  it('relays nothing the allowance cannot cover, and owes the limit notice', async () => {
    const { answer } = answerWith(9);
    const ctx = contextOf('One more thing');
    await answer.run(ctx, group);
    expect(ctx.status).toBe('over_allowance');
    const tx = await commit(ctx);
    expect(tx.queued.map((t) => [t.to, t.purpose])).toEqual([[OLGA, 'notice']]);
    expect(tx.bodiesTo(OLGA)[0]).toMatch(/reached your 10 texts/);
  });

  it('asks the assistant as the group itself when addressed, and answers everyone with a number, the asker counted', async () => {
    const { answer, asked } = answerWith(0);
    const ctx = contextOf('Assistant, what should we cook?');
    await answer.run(ctx, group);
    await commit(ctx);
    await ctx.followUp!();
    const tx = await commit(ctx);
    expect(asked).toEqual([{ chatId: 'chat-family', content: 'Olga: Assistant, what should we cook?', userId: 'family' }]);
    expect(tx.queued.map((t) => [t.to, t.from, t.body])).toEqual([
      [OLGA, '+15005550007', 'Pasta at 8.'],
      ['+14155550101', '+15005550008', 'Pasta at 8.'],
      ['+14155550102', '+15005550007', 'Pasta at 8.'],
    ]);
    expect([...tx.usage.values()]).toEqual([3]);
  });

  it.each([
    ['Assistant, hi', true],
    ['@assistant what now', true],
    ['Are we still on?', true],
    ['Dinner at 8', false],
    ['assistants are everywhere', false],
  ])('%s addresses the assistant: %s', (body, expected) => {
    expect(addressesAssistant(body, 'Assistant')).toBe(expected);
  });
});
