import { Inject, Injectable } from '@nestjs/common';
import { GroupJoins } from '../groups/group-joins';
import { accountOf, type InboundContext } from './inbound-context';

/** YES to the one invitation waiting for this number, or `JOIN 4821` for one of several (GroupJoins.confirm). */
@Injectable()
export class JoinAnswer {
  constructor(@Inject(GroupJoins) private readonly joins: Pick<GroupJoins, 'confirm'>) {}

  run(ctx: InboundContext, code: string | null): void {
    const account = accountOf(ctx);
    ctx.writes.push(async (tx) => {
      const outcome = await this.joins.confirm(tx, ctx.text, account, code);
      ctx.status = outcome.status;
      ctx.groupId = outcome.groupId ?? null;
    });
  }
}
