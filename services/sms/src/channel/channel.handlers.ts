import { Controller, Inject } from '@nestjs/common';
import { AUTH_RPC } from '@app/contracts/auth';
import { E164Schema, SMS_RPC, SMS_EVENTS } from '@app/contracts/sms';
import { DomainError, EventHandler, RpcClient, RpcHandler, SERVICE_CONFIG, userIdOf, type EventInput, type RpcInput } from '@app/platform';
import type { SmsConfig } from '../config';
import { MessagesService } from '../messages/messages.service';
import { GroupJoins } from './groups/group-joins';
import { GroupsService } from './groups/groups.service';
import { GroupNumberPool } from './groups/number-pool';
import { periodOf } from './inbound/allowance';
import { InboundService } from './inbound.service';
import { OutboundQueue } from './outbound-queue';
import { ServiceNumbers } from './service-numbers';
import { WebhookSigning } from './signing';
import { NumbersRepository } from './store/numbers.repository';

/** The text channel's calls (webhooks, the caller's state, groups, the development phone) and the outbound queue's consumer. */
@Controller()
export class ChannelHandlers {
  constructor(
    private readonly inbound: InboundService,
    private readonly outbound: OutboundQueue,
    private readonly groups: GroupsService,
    private readonly joins: GroupJoins,
    private readonly numbers: NumbersRepository,
    private readonly serviceNumbers: ServiceNumbers,
    private readonly pool: GroupNumberPool,
    private readonly signing: WebhookSigning,
    private readonly messages: MessagesService,
    private readonly rpc: RpcClient,
    @Inject(SERVICE_CONFIG) private readonly config: SmsConfig,
  ) {}

  @RpcHandler(SMS_RPC.inbound)
  receive({ data }: RpcInput<typeof SMS_RPC.inbound>) {
    return this.inbound.receive(data);
  }

  @RpcHandler(SMS_RPC.status)
  status({ data }: RpcInput<typeof SMS_RPC.status>) {
    return this.inbound.status(data);
  }

  @EventHandler(SMS_EVENTS.outbound)
  async deliver({ payload }: EventInput<typeof SMS_EVENTS.outbound>): Promise<void> {
    await this.outbound.deliver(payload.message_id);
  }

  @RpcHandler(SMS_RPC.service)
  service() {
    return {
      phone_number: this.serviceNumbers.assistant,
      group_numbers: [...this.pool.numbers],
      monthly_allowance: this.config.SMS_MONTHLY_ALLOWANCE,
      max_segments: this.config.SMS_MAX_SEGMENTS,
      dev_phone: this.messages.devInboxEnabled,
    };
  }

  @RpcHandler(SMS_RPC.me)
  async me({ caller }: RpcInput<typeof SMS_RPC.me>) {
    const userId = userIdOf(caller);
    const period = periodOf(new Date());
    const [known, used] = await Promise.all([this.numbers.numberOfUser(userId), this.numbers.usage(userId, period)]);
    let phone = known?.phone ?? null;
    if (!phone && !caller.is_anon) phone = (await this.rpc.call(AUTH_RPC.me, {}, caller)).phone_number;
    const optedOut = known?.optedOut ?? (phone ? ((await this.numbers.number(phone))?.optedOut ?? false) : false);
    return {
      phone_number: phone && E164Schema.safeParse(phone).success ? phone : null,
      opted_out: optedOut,
      period,
      texts_used: used,
      monthly_allowance: this.config.SMS_MONTHLY_ALLOWANCE,
    };
  }

  /** Signs a development phone's webhook: only where the development inbox is (console sink, DEV_SMS_INBOX, not production). */
  @RpcHandler(SMS_RPC.devSign)
  async devSign({ data }: RpcInput<typeof SMS_RPC.devSign>) {
    if (!this.messages.devInboxEnabled) throw DomainError.notFound('Not Found');
    return { signature: await this.signing.sign(data.url, data.params), to: this.serviceNumbers.assistant };
  }

  @RpcHandler(SMS_RPC.createGroup)
  createGroup({ caller, data }: RpcInput<typeof SMS_RPC.createGroup>) {
    return this.groups.create(caller, data.name);
  }

  @RpcHandler(SMS_RPC.listGroups)
  listGroups({ caller }: RpcInput<typeof SMS_RPC.listGroups>) {
    return this.groups.list(caller);
  }

  @RpcHandler(SMS_RPC.getGroup)
  getGroup({ caller, data }: RpcInput<typeof SMS_RPC.getGroup>) {
    return this.groups.get(caller, data.channel_url);
  }

  @RpcHandler(SMS_RPC.groupMessages)
  groupMessages({ caller, data }: RpcInput<typeof SMS_RPC.groupMessages>) {
    return this.groups.messages(caller, data.channel_url, data.q, data.limit);
  }

  @RpcHandler(SMS_RPC.createInvite)
  createInvite({ caller, data }: RpcInput<typeof SMS_RPC.createInvite>) {
    return this.groups.createInvite(caller, data.channel_url);
  }

  @RpcHandler(SMS_RPC.revokeInvite)
  revokeInvite({ caller, data }: RpcInput<typeof SMS_RPC.revokeInvite>) {
    return this.groups.revokeInvite(caller, data.channel_url, data.invite_id);
  }

  @RpcHandler(SMS_RPC.invite)
  invite({ data }: RpcInput<typeof SMS_RPC.invite>) {
    return this.groups.invite(data.invite_id);
  }

  @RpcHandler(SMS_RPC.join)
  join({ data }: RpcInput<typeof SMS_RPC.join>) {
    return this.joins.ask(data.invite_id, data.phone_number);
  }

  @RpcHandler(SMS_RPC.leaveGroup)
  leaveGroup({ caller, data }: RpcInput<typeof SMS_RPC.leaveGroup>) {
    return this.groups.leave(caller, data.channel_url);
  }
}
