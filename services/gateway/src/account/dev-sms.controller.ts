import { Controller, Get, Header, Inject, Req } from '@nestjs/common';
import { SMS_RPC } from '@app/contracts/sms';
import { DomainError, RUNTIME_ENV, RpcClient, type RuntimeEnv } from '@app/platform';
import type { FastifyRequest } from 'fastify';
import { Public } from '../auth/auth.decorators';
import { callerOf } from '../http/request-context';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The development SMS inbox: what the console sink "sent" (sign-in codes included), to play the
 * phone without Twilio. Off in production and whenever Twilio is configured.
 */
@Controller('api/v1/dev/sms')
export class DevSmsController {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(RUNTIME_ENV) private readonly env: RuntimeEnv,
  ) {}

  @Get('messages')
  @Public()
  @Header('cache-control', 'no-store')
  async messages(@Req() request: FastifyRequest) {
    return this.inbox(request);
  }

  @Get()
  @Public()
  @Header('cache-control', 'no-store')
  @Header('content-type', 'text/html; charset=utf-8')
  async page(@Req() request: FastifyRequest) {
    const { messages } = await this.inbox(request);
    const rows = messages
      .map((m) => `<li><time>${escape(m.created_at)}</time> <b>${escape(m.to)}</b> <span>${escape(m.purpose)}</span><p>${escape(m.body)}</p></li>`)
      .join('');
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Development SMS inbox</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>body{font-family:system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem}li{list-style:none;border-bottom:1px solid #ddd;padding:.5rem 0}time{color:#666;font-size:.85rem}p{margin:.25rem 0;font-size:1.1rem}</style></head>
<body><h1>Development SMS inbox</h1><p>Texts the assistant would have sent. Reload to see new ones.</p><ul>${rows || '<li>No messages yet.</li>'}</ul></body></html>`;
  }

  private async inbox(request: FastifyRequest) {
    if (this.env.NODE_ENV === 'production') throw DomainError.notFound('Not Found');
    const inbox = await this.rpc.call(SMS_RPC.devInbox, { limit: 50 }, callerOf(request));
    if (!inbox.enabled) throw DomainError.notFound('Not Found');
    return inbox;
  }
}
