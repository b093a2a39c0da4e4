import { Controller } from '@nestjs/common';
import { AUTH_RPC } from '@app/contracts/auth';
import { RpcHandler, type RpcInput } from '@app/platform';
import { SessionsService } from './sessions.service';

/** Sessions: logging out, and the gateway's check of a session. */
@Controller()
export class SessionsHandlers {
  constructor(private readonly sessions: SessionsService) {}

  @RpcHandler(AUTH_RPC.logout)
  logout({ caller, data }: RpcInput<typeof AUTH_RPC.logout>) {
    return this.sessions.logout(caller, data.all ?? false);
  }

  @RpcHandler(AUTH_RPC.sessionStatus)
  sessionStatus({ data }: RpcInput<typeof AUTH_RPC.sessionStatus>) {
    return this.sessions.status(data.session_id, data.user_id);
  }
}
