import { Controller } from '@nestjs/common';
import { AUTH_RPC } from '@app/contracts/auth';
import { USER_EVENTS } from '@app/contracts/events';
import { EventHandler, RpcHandler, type EventInput, type RpcInput } from '@app/platform';
import { AccountService } from './account.service';

/** The account's deletion, and every service's confirmation that it purged the user. */
@Controller()
export class AccountHandlers {
  constructor(private readonly account: AccountService) {}

  @RpcHandler(AUTH_RPC.deleteAccount)
  deleteAccount({ caller }: RpcInput<typeof AUTH_RPC.deleteAccount>) {
    return this.account.delete(caller);
  }

  @EventHandler(USER_EVENTS.purged)
  purged({ payload }: EventInput<typeof USER_EVENTS.purged>) {
    return this.account.confirmPurge(payload.deletion_id, payload.service);
  }
}
