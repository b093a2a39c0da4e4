import { Controller } from '@nestjs/common';
import { CHAT_RPC } from '@app/contracts/chat';
import { SHARED_FILE_ACCESS } from '@app/contracts/files';
import { RpcHandler, type RpcInput } from '@app/platform';
import { ConversationsService } from './conversations.service';

/** The calls on conversations, their messages and their shares: each handed to ConversationsService. */
@Controller()
export class ConversationsHandlers {
  constructor(private readonly conversations: ConversationsService) {}

  @RpcHandler(CHAT_RPC.list)
  list({ caller }: RpcInput<typeof CHAT_RPC.list>) {
    return this.conversations.list(caller);
  }

  @RpcHandler(CHAT_RPC.get)
  get({ caller, data }: RpcInput<typeof CHAT_RPC.get>) {
    return this.conversations.get(caller, data.chat_id);
  }

  @RpcHandler(CHAT_RPC.create)
  create({ caller, data }: RpcInput<typeof CHAT_RPC.create>) {
    return this.conversations.create(caller, data.conversation_title, data.shared, data.temporary, data.project_id ?? null);
  }

  @RpcHandler(CHAT_RPC.update)
  update({ caller, data }: RpcInput<typeof CHAT_RPC.update>) {
    return this.conversations.update(caller, data);
  }

  @RpcHandler(CHAT_RPC.remove)
  remove({ caller, data }: RpcInput<typeof CHAT_RPC.remove>) {
    return this.conversations.remove(caller, data.chat_id);
  }

  @RpcHandler(CHAT_RPC.messages)
  messages({ caller, data }: RpcInput<typeof CHAT_RPC.messages>) {
    return this.conversations.messages(caller, data.chat_ids);
  }

  @RpcHandler(CHAT_RPC.page)
  page({ caller, data }: RpcInput<typeof CHAT_RPC.page>) {
    return this.conversations.page(caller, data);
  }

  @RpcHandler(CHAT_RPC.feedback)
  feedback({ caller, data }: RpcInput<typeof CHAT_RPC.feedback>) {
    return this.conversations.feedback(caller, data);
  }

  @RpcHandler(CHAT_RPC.share)
  share({ caller, data }: RpcInput<typeof CHAT_RPC.share>) {
    return this.conversations.share(caller, data.chat_id);
  }

  @RpcHandler(CHAT_RPC.owned)
  owned({ caller, data }: RpcInput<typeof CHAT_RPC.owned>) {
    return this.conversations.owned(caller, data.chat_id, data.message_id);
  }

  @RpcHandler(CHAT_RPC.unshare)
  unshare({ caller, data }: RpcInput<typeof CHAT_RPC.unshare>) {
    return this.conversations.unshare(caller, data.chat_id);
  }

  @RpcHandler(SHARED_FILE_ACCESS)
  sharedFileAccess({ data }: RpcInput<typeof SHARED_FILE_ACCESS>) {
    return this.conversations.sharedFileAccess(data.share_id, data.object_store_object_id);
  }

  @RpcHandler(CHAT_RPC.shared)
  shared({ data }: RpcInput<typeof CHAT_RPC.shared>) {
    return this.conversations.shared(data.share_id, { after: data.after, limit: data.limit });
  }
}
