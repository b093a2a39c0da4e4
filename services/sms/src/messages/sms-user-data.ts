import { Injectable } from '@nestjs/common';
import type { Caller, PayloadOf } from '@app/contracts';
import { AUTH_RPC } from '@app/contracts/auth';
import { CHAT_RPC } from '@app/contracts/chat';
import type { USER_EVENTS } from '@app/contracts/events';
import { AppLogger, RpcCallError, RpcClient, type UserDataPurgeHook } from '@app/platform';
import { texterCaller } from '../channel/assistant.client';
import { GroupsRepository } from '../channel/store/groups.repository';
import { NumbersRepository } from '../channel/store/numbers.repository';
import { MessagesRepository } from './messages.repository';

/**
 * A sign-in code is texted before the number's account may exist, so its row has no user yet.
 * The platform exports and purges `outbound_message` by `user_id`; this hook first finds the rest
 * by the account's phone number: on export it asks the auth service for the caller's number and
 * links the texts sent to it; on deletion it removes every text sent to the number the event names.
 *
 * On deletion it also takes the member out of their groups: their words leave the group's search
 * and the copies relayed to the others read "(removed)"; the group's conversation in the chat
 * service (the model's context, which held their words) starts again; a group nobody is left in
 * goes. The platform then deletes the rows that carry the user (texts in and out, memberships...).
 * Every step may run again (the event is delivered again after a failure).
 */
@Injectable()
export class SmsUserData implements UserDataPurgeHook {
  constructor(
    private readonly messages: MessagesRepository,
    private readonly groups: GroupsRepository,
    private readonly numbers: NumbersRepository,
    private readonly rpc: RpcClient,
    private readonly logger: AppLogger,
  ) {}

  async beforeExport(userId: string, caller: Caller): Promise<void> {
    // The caller is the user themself (the gateway sets it from their token): auth says their number.
    if (caller.user_id !== userId) return;
    const me = await this.rpc.call(AUTH_RPC.me, {}, caller);
    if (me.user_id === userId && me.phone_number) await this.messages.linkToUser(me.phone_number, userId);
  }

  async purgeUserData(userId: string, deleted: PayloadOf<typeof USER_EVENTS.deleted>): Promise<void> {
    const known = await this.numbers.numberOfUser(userId);
    const phones = [...new Set([deleted.phone_number, known?.phone].filter((p): p is string => Boolean(p)))];
    for (const group of await this.groups.ofMember(userId, phones)) {
      const caller = texterCaller(group.id, `purge:${deleted.deletion_id}`);
      const others = (await this.groups.members(group.id)).filter((m) => m.userId !== userId && !phones.includes(m.phoneNumber));
      if (others.length === 0) {
        await this.forgetConversation(caller, group.chatId);
        await this.groups.remove(group.id);
        continue;
      }
      // The conversation is replaced before the membership goes, so a second delivery finds the group again.
      const fresh = await this.rpc.call(CHAT_RPC.create, { conversation_title: group.name, shared: true }, caller);
      await this.groups.replaceChat(group.id, fresh.chat_id);
      await this.forgetConversation(caller, group.chatId);
      await this.groups.removeMember(group.id, userId, phones);
    }
    await this.groups.forgetNumbers(phones);
    for (const phone of phones) await this.messages.deleteTo(phone);
  }

  private async forgetConversation(caller: Caller, chatId: string): Promise<void> {
    try {
      await this.rpc.call(CHAT_RPC.remove, { chat_id: chatId }, caller);
    } catch (error) {
      // Already gone (a second delivery of the event): nothing left to forget.
      if (error instanceof RpcCallError && error.shape.status === 404) return;
      this.logger.warn({ msg: "A group's conversation could not be deleted", error: String(error) }, 'SmsUserData');
      throw error;
    }
  }
}
