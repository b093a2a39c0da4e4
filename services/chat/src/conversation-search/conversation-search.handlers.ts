import { Controller } from '@nestjs/common';
import { CHAT_RPC } from '@app/contracts/chat';
import { RpcHandler, type RpcInput } from '@app/platform';
import { ConversationSearchService } from './conversation-search.service';

/** The search over a user's conversations. */
@Controller()
export class ConversationSearchHandlers {
  constructor(private readonly searches: ConversationSearchService) {}

  @RpcHandler(CHAT_RPC.search)
  search({ caller, data }: RpcInput<typeof CHAT_RPC.search>) {
    return this.searches.search(caller, data);
  }
}
