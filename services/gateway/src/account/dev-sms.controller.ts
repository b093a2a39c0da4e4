import { Controller, Header, Query, Req, UseGuards } from '@nestjs/common';
import { API } from '@app/contracts/gateway';
import { E164Schema, SMS_RPC } from '@app/contracts/sms';
import { DomainError, RpcClient } from '@app/platform';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DevOnlyGuard } from '../http/dev-only.guard';
import { callerOf } from '../http/request-context';
import { Route } from '../http/route';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The number asked for, in E.164. A `+` left raw in a query string reads as a space, so
 * `?to=+14155550123` and `?to=%2B14155550123` both mean +14155550123.
 */
const ToQuerySchema = z.object({
  to: z.preprocess((value) => {
    if (typeof value !== 'string') return value;
    const trimmed = value.trim();
    return /^\d/.test(trimmed) ? `+${trimmed}` : trimmed;
  }, E164Schema),
});

/**
 * The development SMS inbox: what the console sink "sent" to one number (sign-in codes included),
 * to play the phone without Twilio. Served only to requests from this machine itself, only when
 * DEV_SMS_INBOX is on (`npm start` turns it on), never in production, never for Twilio, and only
 * for the number asked for (`?to=+14155550123`): never every number's texts at once. Anything else
 * is 404, as if the route did not exist.
 */
@Controller()
@UseGuards(DevOnlyGuard)
export class DevSmsController {
  constructor(private readonly rpc: RpcClient) {}

  @Route(API.dev.smsMessages)
  @Header('cache-control', 'no-store')
  async messages(@Req() request: FastifyRequest, @Query() query: Record<string, unknown>) {
    const asked = ToQuerySchema.safeParse(query ?? {});
    if (!asked.success) {
      // A closed inbox is 404 whatever was asked; an open one says which field is wrong (422).
      await this.inbox(request, undefined);
      throw asked.error;
    }
    return this.inbox(request, asked.data.to);
  }

  @Route(API.dev.smsInbox)
  @Header('cache-control', 'no-store')
  @Header('content-type', 'text/html; charset=utf-8')
  async page(@Req() request: FastifyRequest, @Query() query: Record<string, unknown>) {
    const asked = typeof query?.to === 'string' && query.to.trim() !== '' ? ToQuerySchema.safeParse(query) : null;
    // The inbox must be on even to show the form; the list only for a well-formed number.
    const { messages } = await this.inbox(request, asked?.success ? asked.data.to : undefined);
    const rows = messages
      .map(
        (m) =>
          `<li><time>${escape(m.created_at)}</time> <b>${escape(m.to)}</b> <span>${escape(m.purpose)}</span><p>${escape(m.body)}</p></li>`,
      )
      .join('');
    const value = asked?.success ? escape(asked.data.to) : typeof query?.to === 'string' ? escape(query.to.slice(0, 32)) : '';
    const note = !asked
      ? '<p>Enter the number you are signing in with to see the texts sent to it.</p>'
      : !asked.success
        ? '<p role="alert">Enter a number in international form, like +14155550123.</p>'
        : `<ul>${rows || '<li>No messages to this number yet.</li>'}</ul>`;
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Development SMS inbox</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>body{font-family:system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem}li{list-style:none;border-bottom:1px solid #ddd;padding:.5rem 0}time{color:#666;font-size:.85rem}p{margin:.25rem 0;font-size:1.1rem}input{font-size:1rem;padding:.25rem}</style></head>
<body><h1>Development SMS inbox</h1><p>Texts the assistant would have sent to one number. Reload to see new ones.</p>
<form method="get" action="${API.dev.smsInbox.path}"><label for="to">Phone number</label> <input id="to" name="to" type="tel" autocomplete="tel" placeholder="+14155550123" value="${value}" required> <button type="submit">Show texts</button></form>
${note}</body></html>`;
  }

  private async inbox(request: FastifyRequest, to: string | undefined) {
    const inbox = await this.rpc.call(SMS_RPC.devInbox, { to, limit: 50 }, callerOf(request));
    if (!inbox.enabled) throw DomainError.notFound('Not Found');
    return inbox;
  }
}
