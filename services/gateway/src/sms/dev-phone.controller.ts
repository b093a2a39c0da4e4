import { randomBytes } from 'node:crypto';
import { Controller, Inject, Req, UseGuards } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { API } from '@app/contracts/gateway';
import { SMS_RPC } from '@app/contracts/sms';
import { DomainError, publicUrlFor, RpcCallError, RpcClient } from '@app/platform';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../config';
import { DevOnlyGuard } from '../http/dev-only.guard';
import { callerOf } from '../http/request-context';
import { Route, ValidBody, type BodyOf } from '../http/route';
import { GATEWAY_CONFIG } from '../tokens';

const INBOUND_PATH = API.sms.twilioInbound.path;

/**
 * The development phone: text the assistant as a chosen number without Twilio. The text goes through
 * the very path Twilio's do: a webhook signed with this instance's development key (the sms service
 * signs it, and only while the development inbox is on) is posted to the inbound route itself. Same
 * guard as the development inbox: requests from this machine, DEV_SMS_INBOX on, the console sink,
 * never in production; 404 otherwise.
 */
@Controller()
@UseGuards(DevOnlyGuard)
export class DevPhoneController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly adapterHost: HttpAdapterHost,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Route(API.dev.phoneInbound)
  async inbound(@ValidBody() body: BodyOf<typeof API.dev.phoneInbound>, @Req() request: FastifyRequest) {
    const messageSid = `SM${randomBytes(16).toString('hex')}`;
    const url = publicUrlFor(this.config.PUBLIC_URL, INBOUND_PATH, `${request.protocol}://${request.headers.host}`);
    let signed: { params: Record<string, string>; signature: string };
    try {
      const to = body.to ?? (await this.rpc.call(SMS_RPC.service, {}, callerOf(request))).phone_number ?? '';
      const params = {
        MessageSid: messageSid,
        SmsSid: messageSid,
        AccountSid: 'ACdevelopment',
        From: body.from,
        To: to,
        Body: body.body,
        NumMedia: '0',
      };
      // The sms service signs only while its development inbox is on (404 otherwise).
      const { signature } = await this.rpc.call(SMS_RPC.devSign, { url, params }, callerOf(request));
      signed = { params, signature };
    } catch (error) {
      if (error instanceof RpcCallError && error.shape.status === 404) throw DomainError.notFound('Not Found');
      throw error;
    }
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    const answer = await fastify.inject({
      method: 'POST',
      url: INBOUND_PATH,
      headers: {
        host: request.headers.host ?? 'localhost',
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': signed.signature,
        'x-request-id': request.state?.requestId ?? messageSid,
      },
      payload: new URLSearchParams(signed.params).toString(),
    });
    if (answer.statusCode !== 200) {
      const detail = (() => {
        try {
          return (JSON.parse(answer.body) as { detail?: string }).detail;
        } catch {
          return undefined;
        }
      })();
      throw new DomainError(answer.statusCode === 403 ? 'forbidden' : 'bad_request', detail ?? 'The text was refused.', answer.statusCode);
    }
    return { message_sid: messageSid };
  }
}
