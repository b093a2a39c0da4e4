import { Controller } from '@nestjs/common';
import { AUTH_RPC } from '@app/contracts/auth';
import { RpcHandler } from '@app/platform';
import { TokenService } from './token.service';

/** The public keys that check the service's tokens. */
@Controller()
export class TokensHandlers {
  constructor(private readonly tokens: TokenService) {}

  @RpcHandler(AUTH_RPC.keys)
  keys() {
    return this.tokens.publicKeys();
  }
}
