import { z } from 'zod';
import { healthContract } from '../common/health';
import { defineRpc } from '../common/contract';
import { userExportContract } from '../common/user-data';

/** A phone number in E.164 form (`+` and 8 to 15 digits). */
export const E164Schema = z.string().regex(/^\+[1-9]\d{7,14}$/, 'must be a phone number in international form, like +14155550123');

export const SMS_PURPOSES = ['login_code', 'notice', 'reply'] as const;

export const SmsMessageSchema = z.object({
  message_id: z.string(),
  to: E164Schema,
  body: z.string(),
  purpose: z.enum(SMS_PURPOSES),
  provider: z.enum(['console', 'twilio']),
  status: z.string(),
  created_at: z.string(),
});
export type SmsMessage = z.infer<typeof SmsMessageSchema>;

/** Calls answered by the sms service (subjects `sms.*`). */
export const SMS_RPC = {
  health: healthContract('sms'),
  export: userExportContract('sms'),
  /** Sends one text message (Twilio when configured, else the console sink and the development inbox). */
  send: defineRpc({
    subject: 'sms.message.send',
    request: z.object({ to: E164Schema, body: z.string().min(1).max(1600), purpose: z.enum(SMS_PURPOSES) }).strict(),
    response: SmsMessageSchema,
    description: 'Send a text message',
  }),
  /** The development inbox: the messages the console sink "sent" (only when Twilio is not configured). */
  devInbox: defineRpc({
    subject: 'sms.dev.inbox',
    request: z.object({ limit: z.number().int().min(1).max(200).default(50) }).strict(),
    response: z.object({ enabled: z.boolean(), messages: z.array(SmsMessageSchema) }),
    description: 'Messages held by the development inbox, newest first',
  }),
} as const;
