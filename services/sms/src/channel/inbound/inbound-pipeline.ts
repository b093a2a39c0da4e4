import { Inject, Injectable } from '@nestjs/common';
import { OutboundQueue } from '../outbound-queue';
import { ChannelUnitOfWork } from '../store/channel-unit-of-work';
import { GroupAnswer } from './group.answer';
import { IdentifyStep } from './identify.step';
import type { InboundContext } from './inbound-context';
import { JoinAnswer } from './join.answer';
import { KeywordAnswer } from './keyword.answer';
import { ReplyAnswer } from './reply.answer';
import { RouteStep } from './route.step';

/**
 * An incoming text, top to bottom (once claimed, see InboundService):
 *
 *   1. identify  the number's account (auth)                          → ctx.account, or refused
 *   2. route     refused | keyword | ignored | join | group | reply    → ctx.route
 *   3. answer    the route's answer: what to text and record          → ctx.writes (may wait for the model)
 *   4. commit    everything the answer writes, in one transaction     → the texts queued
 *   5. send      the queued texts handed to the sender, after the commit
 *
 * then, for a group question, the assistant's answer to the group (ctx.followUp) goes through
 * steps 4 and 5 again, so the relay is not held back while the model thinks.
 */
@Injectable()
export class InboundPipeline {
  constructor(
    @Inject(IdentifyStep) private readonly identify: Pick<IdentifyStep, 'run'>,
    @Inject(RouteStep) private readonly route: Pick<RouteStep, 'run'>,
    @Inject(KeywordAnswer) private readonly keywords: Pick<KeywordAnswer, 'run'>,
    @Inject(JoinAnswer) private readonly joins: Pick<JoinAnswer, 'run'>,
    @Inject(GroupAnswer) private readonly groups: Pick<GroupAnswer, 'run'>,
    @Inject(ReplyAnswer) private readonly replies: Pick<ReplyAnswer, 'run'>,
    @Inject(ChannelUnitOfWork) private readonly store: Pick<ChannelUnitOfWork, 'transaction'>,
    @Inject(OutboundQueue) private readonly outbound: Pick<OutboundQueue, 'sendNow'>,
  ) {}

  async run(ctx: InboundContext): Promise<void> {
    if (!(await this.identify.run(ctx))) return;
    await this.route.run(ctx);
    await this.answer(ctx);
    await this.commitAndSend(ctx);
    if (ctx.followUp) {
      await ctx.followUp();
      await this.commitAndSend(ctx);
    }
  }

  private async answer(ctx: InboundContext): Promise<void> {
    const route = ctx.route!;
    switch (route.kind) {
      case 'refused':
      case 'ignored':
      case 'not_a_member':
        return;
      case 'keyword':
        return this.keywords.run(ctx, route.keyword);
      case 'join':
        return this.joins.run(ctx, route.code);
      case 'group':
        return this.groups.run(ctx, route.membership);
      case 'reply':
        return this.replies.run(ctx);
    }
  }

  /** Step 4 and 5: the writes in one transaction, then the texts it queued sent (the queue's events are the durable path). */
  private async commitAndSend(ctx: InboundContext): Promise<void> {
    const writes = ctx.writes.splice(0);
    if (!writes.length) return;
    const { queued } = await this.store.transaction(async (tx) => {
      for (const write of writes) await write(tx);
    });
    await this.outbound.sendNow(queued);
  }
}
