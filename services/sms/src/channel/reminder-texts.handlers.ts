import { Controller } from '@nestjs/common';
import { SMS_REMINDER_RPC } from '@app/contracts/sms';
import { RpcHandler, type RpcInput } from '@app/platform';
import { ReminderTexts } from './reminder-texts';

/** Reminders by text, asked for by the chat service at their time. */
@Controller()
export class ReminderTextsHandlers {
  constructor(private readonly texts: ReminderTexts) {}

  @RpcHandler(SMS_REMINDER_RPC.deliver)
  async deliver({ caller, data }: RpcInput<typeof SMS_REMINDER_RPC.deliver>) {
    return { status: await this.texts.deliver(caller, data.reminder_id, data.body) };
  }
}
