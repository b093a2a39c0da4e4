import { Controller } from '@nestjs/common';
import { INSIDER_CONFIG_RPC } from '@app/contracts/insider-config';
import { RpcHandler, type RpcInput } from '@app/platform';
import { FlagsService } from './flags.service';

@Controller()
export class FlagsHandlers {
  constructor(private readonly flags: FlagsService) {}

  @RpcHandler(INSIDER_CONFIG_RPC.effectiveFlags)
  effective({ data }: RpcInput<typeof INSIDER_CONFIG_RPC.effectiveFlags>) {
    return this.flags.effective(data.user_id);
  }
}
