import { Controller } from '@nestjs/common';
import { IMPORT_RPC } from '@app/contracts/chat';
import { RpcHandler, type RpcInput } from '@app/platform';
import { ImportsService } from './imports.service';

/** The imports' calls: each a one-line delegation. */
@Controller()
export class ImportsHandlers {
  constructor(private readonly imports: ImportsService) {}

  @RpcHandler(IMPORT_RPC.start)
  start({ caller, data }: RpcInput<typeof IMPORT_RPC.start>) {
    return this.imports.start(caller, data);
  }

  @RpcHandler(IMPORT_RPC.get)
  get({ caller, data }: RpcInput<typeof IMPORT_RPC.get>) {
    return this.imports.get(caller, data.import_id);
  }

  @RpcHandler(IMPORT_RPC.cancel)
  cancel({ caller, data }: RpcInput<typeof IMPORT_RPC.cancel>) {
    return this.imports.cancel(caller, data.import_id);
  }

  @RpcHandler(IMPORT_RPC.list)
  list({ caller }: RpcInput<typeof IMPORT_RPC.list>) {
    return this.imports.list(caller);
  }
}
