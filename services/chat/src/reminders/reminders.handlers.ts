import { Controller } from '@nestjs/common';
import { REMINDER_RPC } from '@app/contracts/chat';
import { RpcHandler, type RpcInput } from '@app/platform';
import { RemindersService } from './reminders.service';

/** The reminders' calls (the Reminders page): each a one-line delegation. */
@Controller()
export class RemindersHandlers {
  constructor(private readonly reminders: RemindersService) {}

  @RpcHandler(REMINDER_RPC.list)
  list({ caller }: RpcInput<typeof REMINDER_RPC.list>) {
    return this.reminders.list(caller);
  }

  @RpcHandler(REMINDER_RPC.create)
  create({ caller, data }: RpcInput<typeof REMINDER_RPC.create>) {
    return this.reminders.create(caller, data, { source: 'portal' });
  }

  @RpcHandler(REMINDER_RPC.update)
  update({ caller, data }: RpcInput<typeof REMINDER_RPC.update>) {
    return this.reminders.update(caller, data);
  }

  @RpcHandler(REMINDER_RPC.cancel)
  cancel({ caller, data }: RpcInput<typeof REMINDER_RPC.cancel>) {
    return this.reminders.cancel(caller, data.reminder_id);
  }

  @RpcHandler(REMINDER_RPC.seen)
  seen({ caller, data }: RpcInput<typeof REMINDER_RPC.seen>) {
    return this.reminders.seen(caller, data.reminder_id);
  }

  @RpcHandler(REMINDER_RPC.settings)
  settings({ caller }: RpcInput<typeof REMINDER_RPC.settings>) {
    return this.reminders.settings(caller);
  }

  @RpcHandler(REMINDER_RPC.updateSettings)
  updateSettings({ caller, data }: RpcInput<typeof REMINDER_RPC.updateSettings>) {
    return this.reminders.updateSettings(caller, data);
  }
}
