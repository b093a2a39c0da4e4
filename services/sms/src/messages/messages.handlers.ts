import { Controller } from '@nestjs/common';
import { SMS_RPC } from '@app/contracts/sms';
import { RpcHandler, type RpcInput } from '@app/platform';
import { MessagesService } from './messages.service';

@Controller()
export class MessagesHandlers {
  constructor(private readonly messages: MessagesService) {}

  @RpcHandler(SMS_RPC.send)
  send({ data }: RpcInput<typeof SMS_RPC.send>) {
    return this.messages.send({ to: data.to, body: data.body, purpose: data.purpose, userId: data.user_id });
  }

  @RpcHandler(SMS_RPC.optOut)
  optOut({ data }: RpcInput<typeof SMS_RPC.optOut>) {
    return this.messages.optOut(data.phone_number);
  }

  @RpcHandler(SMS_RPC.devInbox)
  devInbox({ data }: RpcInput<typeof SMS_RPC.devInbox>) {
    return this.messages.devInbox(data.to, data.limit);
  }
}
