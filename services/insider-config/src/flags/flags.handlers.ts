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

  @RpcHandler(INSIDER_CONFIG_RPC.getStatus)
  status({ caller }: RpcInput<typeof INSIDER_CONFIG_RPC.getStatus>) {
    return this.flags.status(caller);
  }

  @RpcHandler(INSIDER_CONFIG_RPC.setStatus)
  setStatus({ caller, data }: RpcInput<typeof INSIDER_CONFIG_RPC.setStatus>) {
    return this.flags.setEnabled(caller, data.is_insider_enabled);
  }

  @RpcHandler(INSIDER_CONFIG_RPC.getFlags)
  get({ caller }: RpcInput<typeof INSIDER_CONFIG_RPC.getFlags>) {
    return this.flags.flags(caller);
  }

  @RpcHandler(INSIDER_CONFIG_RPC.setFlags)
  set({ caller, data }: RpcInput<typeof INSIDER_CONFIG_RPC.setFlags>) {
    return this.flags.updateFlags(caller, data);
  }
}
