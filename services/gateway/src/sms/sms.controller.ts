import { Controller, Header, Inject, Req } from '@nestjs/common';
import { API } from '@app/contracts/gateway';
import { SMS_RPC } from '@app/contracts/sms';
import { RpcClient } from '@app/platform';
import type { FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../config';
import { callerOf } from '../http/request-context';
import { Route } from '../http/route';
import { GATEWAY_CONFIG } from '../tokens';
import { EMPTY_TWIML, twilioWebhookOf } from './twilio-webhook';

/**
 * The text channel's webhooks: Twilio's form posts, whose
 * signature the sms service checks against PUBLIC_URL + path (403 and nothing stored otherwise).
 * The service description, group invites, the caller's text state and groups are plain proxies
 * (API.sms).
 */
@Controller()
export class SmsController {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /** Twilio's Messaging webhook: empty TwiML at once; the reply goes out through the outbound queue. */
  @Route(API.sms.twilioInbound)
  @Header('content-type', 'text/xml; charset=utf-8')
  async inbound(@Req() request: FastifyRequest): Promise<string> {
    await this.rpc.call(SMS_RPC.inbound, twilioWebhookOf(request, this.config.PUBLIC_URL), callerOf(request));
    return EMPTY_TWIML;
  }

  @Route(API.sms.twilioStatus)
  async status(@Req() request: FastifyRequest): Promise<void> {
    await this.rpc.call(SMS_RPC.status, twilioWebhookOf(request, this.config.PUBLIC_URL), callerOf(request));
  }
}
