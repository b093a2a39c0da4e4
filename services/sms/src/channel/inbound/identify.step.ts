import { Inject, Injectable } from '@nestjs/common';
import { AUTH_RPC } from '@app/contracts/auth';
import { systemCaller } from '@app/contracts';
import { RpcCallError, RpcClient } from '@app/platform';
import { NumbersRepository } from '../store/numbers.repository';
import type { InboundContext } from './inbound-context';

/**
 * Step 1: whose number this is. The auth service answers the number's account (made on a first
 * text, shared with the web when the same number signs in there). A blocked region (451), an
 * invalid number (400) or an account being deleted (409) is refused: no service, no reply.
 */
@Injectable()
export class IdentifyStep {
  constructor(
    @Inject(RpcClient) private readonly rpc: Pick<RpcClient, 'call'>,
    @Inject(NumbersRepository) private readonly numbers: Pick<NumbersRepository, 'link'>,
  ) {}

  /** Whether the text has an account to answer for. */
  async run(ctx: InboundContext): Promise<boolean> {
    try {
      const account = await this.rpc.call(
        AUTH_RPC.accountForPhone,
        { phone_number: ctx.text.from },
        systemCaller(`sms:${ctx.text.messageSid}`),
      );
      ctx.account = { userId: account.user_id, name: account.name };
    } catch (error) {
      if (error instanceof RpcCallError && error.shape.status < 500) {
        ctx.status = `refused_${error.shape.status}`;
        return false;
      }
      throw error;
    }
    await this.numbers.link(ctx.text.from, ctx.account.userId);
    return true;
  }
}
