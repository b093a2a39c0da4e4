import { Controller } from '@nestjs/common';
import { CHAT_RPC } from '@app/contracts/chat';
import { RpcHandler, type RpcInput } from '@app/platform';
import { RepliesService } from './replies.service';

/** The calls that write, rewrite and stop a reply: each handed to RepliesService. */
@Controller()
export class RepliesHandlers {
  constructor(private readonly replies: RepliesService) {}

  @RpcHandler(CHAT_RPC.send)
  send({ caller, data }: RpcInput<typeof CHAT_RPC.send>) {
    return this.replies.send(caller, data);
  }

  @RpcHandler(CHAT_RPC.regenerate)
  regenerate({ caller, data }: RpcInput<typeof CHAT_RPC.regenerate>) {
    return this.replies.regenerate(caller, data);
  }

  @RpcHandler(CHAT_RPC.stop)
  stop({ caller, data }: RpcInput<typeof CHAT_RPC.stop>) {
    return this.replies.stop(caller, data);
  }
}
