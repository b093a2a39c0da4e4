import { FakeTransaction, inboundText } from '../channel.fakes';
import type { OutboundQueue } from '../outbound-queue';
import { queuedText } from '../queued-text';
import type { ChannelUnitOfWork, ChannelTransaction } from '../store/channel-unit-of-work';
import type { GroupAnswer } from './group.answer';
import type { IdentifyStep } from './identify.step';
import { inboundContext, type InboundContext, type InboundRoute } from './inbound-context';
import { InboundPipeline } from './inbound-pipeline';
import type { JoinAnswer } from './join.answer';
import type { KeywordAnswer } from './keyword.answer';
import type { ReplyAnswer } from './reply.answer';
import type { RouteStep } from './route.step';

/** The pipeline over typed fakes of its steps: what ran, in which order, and what was committed and sent. */
function pipelineWith(route: InboundRoute, { identified = true } = {}) {
  const log: string[] = [];
  const transactions: FakeTransaction[] = [];
  const text = (body: string) =>
    queuedText({ to: '+14155550100', from: '+15005550006', body, purpose: 'reply', provider: 'twilio', userId: 'u1' });
  const answer = (name: string) => ({
    run: async (ctx: InboundContext) => {
      log.push(`answer:${name}`);
      ctx.writes.push(async (tx) => tx.queue(text(name)));
    },
  });
  const group: Pick<GroupAnswer, 'run'> = {
    run: async (ctx) => {
      log.push('answer:group');
      ctx.writes.push(async (tx) => tx.queue(text('relay')));
      ctx.followUp = async () => {
        log.push('followUp');
        ctx.writes.push(async (tx) => tx.queue(text('assistant')));
      };
    },
  };
  const identify: Pick<IdentifyStep, 'run'> = {
    run: async (ctx) => {
      log.push('identify');
      if (identified) ctx.account = { userId: 'u1', name: null };
      else ctx.status = 'refused_451';
      return identified;
    },
  };
  const routeStep: Pick<RouteStep, 'run'> = {
    run: async (ctx) => {
      log.push('route');
      ctx.route = route;
    },
  };
  const store: Pick<ChannelUnitOfWork, 'transaction'> = {
    transaction: async <T>(work: (tx: ChannelTransaction) => Promise<T>) => {
      const tx = new FakeTransaction();
      transactions.push(tx);
      const result = await work(tx);
      log.push(`commit:${tx.queued.map((t) => t.body).join(',')}`);
      return { result, queued: tx.queued.map((t) => t.id) };
    },
  };
  const outbound: Pick<OutboundQueue, 'sendNow'> = {
    sendNow: async (ids) => void log.push(`send:${ids.length}`),
  };
  const pipeline = new InboundPipeline(
    identify,
    routeStep,
    answer('keyword') as Pick<KeywordAnswer, 'run'>,
    answer('join') as Pick<JoinAnswer, 'run'>,
    group,
    answer('reply') as Pick<ReplyAnswer, 'run'>,
    store,
    outbound,
  );
  return { pipeline, log, transactions };
}

const ctx = () => inboundContext(inboundText({ from: '+14155550100', to: '+15005550006', body: 'Hi' }));

describe('InboundPipeline', () => {
  it('identifies, routes, answers, commits what the answer wrote in one transaction, then sends it', async () => {
    const { pipeline, log, transactions } = pipelineWith({ kind: 'reply' });
    await pipeline.run(ctx());
    expect(log).toEqual(['identify', 'route', 'answer:reply', 'commit:reply', 'send:1']);
    expect(transactions).toHaveLength(1);
  });

  it("sends a group's relay before the assistant's answer to the group is even asked for", async () => {
    const { pipeline, log } = pipelineWith({ kind: 'group', membership: {} as never });
    await pipeline.run(ctx());
    expect(log).toEqual(['identify', 'route', 'answer:group', 'commit:relay', 'send:1', 'followUp', 'commit:assistant', 'send:1']);
  });

  it('stops at a number the auth service refuses: nothing routed, written or sent', async () => {
    const { pipeline, log } = pipelineWith({ kind: 'reply' }, { identified: false });
    const context = ctx();
    await pipeline.run(context);
    expect(log).toEqual(['identify']);
    expect(context.status).toBe('refused_451');
  });

  it.each<InboundRoute>([
    { kind: 'refused', status: 'refused_unknown_number' },
    { kind: 'ignored', status: 'ignored_opted_out' },
    { kind: 'not_a_member', status: 'not_a_member' },
  ])('writes and sends nothing for a %o', async (route) => {
    const { pipeline, log, transactions } = pipelineWith(route);
    await pipeline.run(ctx());
    expect(log).toEqual(['identify', 'route']);
    expect(transactions).toEqual([]);
  });

  it.each<[InboundRoute, string]>([
    [{ kind: 'keyword', keyword: 'help', word: 'HELP' }, 'keyword'],
    [{ kind: 'join', code: '4821' }, 'join'],
  ])('hands %o to its answer', async (route, name) => {
    const { pipeline, log } = pipelineWith(route);
    await pipeline.run(ctx());
    expect(log).toContain(`answer:${name}`);
  });
});
