import { z } from 'zod';
import { DevInboundBodySchema, E164Schema, SmsMessageSchema } from '../../sms/index';
import { defineRoute } from '../route';

/** The routes of the area `dev` (`API.dev`). */
export const devRoutes = {
  smsInbox: defineRoute({
    method: 'GET',
    path: '/api/v1/dev/sms',
    summary:
      'Development SMS inbox page: the texts to one number (`?to=`, a form without it). Requests from this machine only, DEV_SMS_INBOX on, console sink, never in production; else 404',
    tag: 'development',
    auth: 'public',
    query: z.object({ to: E164Schema.optional() }),
    produces: 'text/html',
    response: z.string(),
  }),
  smsMessages: defineRoute({
    method: 'GET',
    path: '/api/v1/dev/sms/messages',
    summary: 'Development SMS inbox as JSON: the texts to one number, newest first (same conditions as the page)',
    tag: 'development',
    auth: 'public',
    query: z.object({ to: E164Schema }),
    response: z.object({ enabled: z.boolean(), messages: z.array(SmsMessageSchema) }),
  }),
  phoneInbound: defineRoute({
    method: 'POST',
    path: '/api/v1/dev/sms/inbound',
    rateLimit: 'texting',
    summary:
      "Development phone: text the assistant as a chosen number, through the same inbound path as Twilio's (a webhook signed with this instance's development key); read the reply in the inbox. Same conditions as the inbox",
    tag: 'development',
    auth: 'public',
    sendsText: true,
    body: DevInboundBodySchema,
    status: 202,
    response: z.object({ message_sid: z.string() }),
    errors: {
      404: 'Not here (production, another machine, DEV_SMS_INBOX off or Twilio configured)',
      429: 'Too many texts from this address',
    },
  }),
} as const;
