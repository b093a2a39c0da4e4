import { Controller } from '@nestjs/common';
import { AUTH_RPC } from '@app/contracts/auth';
import { RpcHandler, type RpcInput } from '@app/platform';
import { InvitesService } from './invites.service';

/** Invite links. */
@Controller()
export class InvitesHandlers {
  constructor(private readonly invites: InvitesService) {}

  @RpcHandler(AUTH_RPC.createInvite)
  createInvite({ caller, data }: RpcInput<typeof AUTH_RPC.createInvite>) {
    return this.invites.create(caller, data);
  }
}
