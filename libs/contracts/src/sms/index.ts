import { z } from 'zod';
import { commonCalls } from '../common/service-calls';
import { defineEvent, defineRpc } from '../common/contract';
import { UserIdSchema } from '../common/user-data';

export * from './segments';
export * from './phone';

/** A phone number in E.164 form (`+` and 8 to 15 digits). */
export const E164Schema = z.string().regex(/^\+[1-9]\d{7,14}$/, 'must be a phone number in international form, like +14155550123');

export const SMS_PURPOSES = ['login_code', 'notice', 'reply', 'relay', 'confirmation'] as const;

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

/**
 * Why no sign-in code is texted to a number that opted out (the sign-in page shows it): after STOP
 * the product texts nothing at all, sign-in codes included, until the number texts START.
 */
export function optedOutOfTextsDetail(serviceNumber: string): string {
  return `This number has opted out of texts from the assistant (it texted STOP), so no sign-in code can be sent to it. To opt back in, text START to ${serviceNumber}, then ask for a code again.`;
}

/** The sms service's calls that send and record texts (subjects `sms.*`; all of them are in SMS_RPC). */
const SMS_MESSAGE_CALLS = {
  ...commonCalls('sms'),
  /** Sends one text message (Twilio when configured, else the console sink and the development inbox). */
  send: defineRpc({
    subject: 'sms.message.send',
    request: z
      .object({
        to: E164Schema,
        body: z.string().min(1).max(1600),
        purpose: z.enum(SMS_PURPOSES),
        /** The account the number belongs to, when the sender knows it (the text is then exported and purged with it). */
        user_id: UserIdSchema.nullish(),
      })
      .strict(),
    response: SmsMessageSchema,
    description: 'Send a text message',
  }),
  /**
   * Whether a number has opted out of texts (it texted STOP; `sms.sms_number.opted_out`), and the
   * number it texts START to: asked by the auth service before it texts a sign-in code.
   */
  optOut: defineRpc({
    subject: 'sms.number.optout',
    request: z.object({ phone_number: E164Schema }).strict(),
    response: z.object({ opted_out: z.boolean(), service_number: E164Schema }),
    description: 'Whether a number opted out of texts, and where it texts START to opt back in',
  }),
  /**
   * The development inbox: what the console sink "sent" to one number, newest first. Enabled only
   * with the console sink, `DEV_SMS_INBOX` on and outside production; never all numbers at once
   * (without `to` it only says whether it is enabled).
   */
  devInbox: defineRpc({
    subject: 'sms.dev.inbox',
    request: z.object({ to: E164Schema.optional(), limit: z.number().int().min(1).max(200).default(50) }).strict(),
    response: z.object({ enabled: z.boolean(), messages: z.array(SmsMessageSchema) }),
    description: 'Messages the development inbox holds for one number, newest first',
  }),
} as const;

// ---- The text channel (issue 15): webhooks, the caller's state, groups, the development phone ----------

/** A Twilio webhook as the gateway received it: the form fields, the signature header and the URL it was signed for. */
export const TwilioWebhookSchema = z
  .object({
    /** PUBLIC_URL followed by the path (and query string) Twilio posted to. */
    url: z.string().min(1).max(2048),
    signature: z.string().max(256),
    params: z.record(z.string().max(64), z.union([z.string().max(8192), z.array(z.string().max(8192)).max(20)])),
    /**
     * Fields whose values travel in base64 (their UTF-8 bytes): what the bus cannot carry as text
     * (a NUL byte a phone sent) still reaches the signature check exactly as Twilio signed it.
     */
    encoded: z.array(z.string().max(64)).max(100).optional(),
  })
  .strict();
export type TwilioWebhook = z.infer<typeof TwilioWebhookSchema>;

export const SmsServiceInfoSchema = z.object({
  phone_number: E164Schema.nullable(),
  /** The group numbers (each member has each of their groups on a different one of them). */
  group_numbers: z.array(E164Schema),
  monthly_allowance: z.number().int(),
  max_segments: z.number().int(),
  dev_phone: z.boolean(),
});
export type SmsServiceInfo = z.infer<typeof SmsServiceInfoSchema>;

export const SmsMeSchema = z.object({
  phone_number: E164Schema.nullable(),
  opted_out: z.boolean(),
  period: z.string().regex(/^\d{4}-\d{2}$/),
  texts_used: z.number().int(),
  monthly_allowance: z.number().int(),
});
export type SmsMe = z.infer<typeof SmsMeSchema>;

/** A group's address in the portal (`/group-search/{channel_url}`). */
export const ChannelUrlSchema = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9-]{2,80}$/, 'must be a group channel (lower-case letters, digits and dashes)');
export const GroupInviteIdSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{16,64}$/, 'must be an invite id');

export const GroupChannelSchema = z.object({
  channel_url: z.string(),
  name: z.string(),
  phone_number: z.string(),
  created_at: z.string(),
  members: z.array(z.object({ label: z.string(), is_you: z.boolean() })),
});
export type GroupChannel = z.infer<typeof GroupChannelSchema>;

export const CreateGroupBodySchema = z.object({ name: z.string().trim().min(1, 'must not be empty').max(60) });
export const GroupParamsSchema = z.object({ channel_url: ChannelUrlSchema });
export const GroupInviteParamsSchema = z.object({ invite_id: GroupInviteIdSchema });
export const GroupInviteOfGroupParamsSchema = z.object({ channel_url: ChannelUrlSchema, invite_id: GroupInviteIdSchema });
export const GroupMessagesQuerySchema = z.object({
  q: z.string().trim().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export const JoinGroupBodySchema = z.object({ phone_number: E164Schema });
export const GroupInviteSchema = z.object({ invite_id: z.string(), url: z.string(), expires_at: z.string() });
export const GroupInvitePublicSchema = z.object({ group_name: z.string(), member_count: z.number().int(), expires_at: z.string() });
export const GroupMessageSchema = z.object({
  message_id: z.string(),
  sender: z.string(),
  is_assistant: z.boolean(),
  body: z.string(),
  created_at: z.string(),
  highlights: z.array(z.object({ start: z.number().int(), end: z.number().int() })),
});
export const GroupMessagesSchema = z.object({ results: z.array(GroupMessageSchema) });

/** The development phone's text (`POST /api/v1/dev/sms/inbound`). */
export const DevInboundBodySchema = z.object({
  from: E164Schema,
  body: z.string().min(1).max(1600),
  to: E164Schema.optional(),
});

/** The sms service's calls of the text channel (all of them are in SMS_RPC). */
const SMS_CHANNEL_CALLS = {
  /** An incoming text (Twilio's Messaging webhook): checked, stored once per MessageSid, answered through the outbound queue. */
  inbound: defineRpc({
    subject: 'sms.twilio.inbound',
    request: TwilioWebhookSchema,
    response: z.object({ message_sid: z.string(), duplicate: z.boolean() }),
    description: 'Receive an incoming text (signature checked; processed once per MessageSid)',
  }),
  /** A delivery status callback: stored per message. */
  status: defineRpc({
    subject: 'sms.twilio.status',
    request: TwilioWebhookSchema,
    response: z.object({ recorded: z.boolean() }),
    description: 'Record a delivery status callback (signature checked)',
  }),
  service: defineRpc({
    subject: 'sms.service.info',
    request: z.object({}).strict(),
    response: SmsServiceInfoSchema,
    description: 'The number to text and the limits of the text service',
  }),
  me: defineRpc({
    subject: 'sms.user.me',
    request: z.object({}).strict(),
    response: SmsMeSchema,
    description: "The caller's number, opt-out state and this month's usage",
  }),
  /** The development phone: the signature Twilio would send for this webhook (404 unless the development inbox is on). */
  devSign: defineRpc({
    subject: 'sms.dev.sign',
    request: z.object({ url: z.string().min(1).max(2048), params: z.record(z.string(), z.string()) }).strict(),
    response: z.object({ signature: z.string(), to: E164Schema }),
    description: 'Sign a development webhook locally (development inbox only)',
  }),
  createGroup: defineRpc({
    subject: 'sms.group.create',
    request: CreateGroupBodySchema.strict(),
    response: GroupChannelSchema,
    description: 'Create a group channel with the caller as its first member',
  }),
  listGroups: defineRpc({
    subject: 'sms.group.list',
    request: z.object({}).strict(),
    response: z.object({ groups: z.array(GroupChannelSchema) }),
    description: "The caller's groups",
  }),
  getGroup: defineRpc({
    subject: 'sms.group.get',
    request: GroupParamsSchema.strict(),
    response: GroupChannelSchema,
    description: 'One group of the caller (404 for a non-member)',
  }),
  groupMessages: defineRpc({
    subject: 'sms.group.messages',
    request: GroupParamsSchema.extend(GroupMessagesQuerySchema.shape).strict(),
    response: GroupMessagesSchema,
    description: "A group's messages, newest first, full-text searched when q is given (404 for a non-member)",
  }),
  createInvite: defineRpc({
    subject: 'sms.group.invite.create',
    request: GroupParamsSchema.strict(),
    response: GroupInviteSchema,
    description: 'An invite link to a group (members only)',
  }),
  leaveGroup: defineRpc({
    subject: 'sms.group.leave',
    request: GroupParamsSchema.strict(),
    response: z.object({ left: z.literal(true) }),
    description: "Leave one of the caller's groups (the last member out takes the group with them)",
  }),
  revokeInvite: defineRpc({
    subject: 'sms.group.invite.revoke',
    request: GroupInviteOfGroupParamsSchema.strict(),
    response: z.object({ revoked: z.boolean() }),
    description: 'Revoke an invite link (members only)',
  }),
  invite: defineRpc({
    subject: 'sms.group.invite.get',
    request: GroupInviteParamsSchema.strict(),
    response: GroupInvitePublicSchema,
    description: 'What a public invite page shows (404 when expired or revoked)',
  }),
  join: defineRpc({
    subject: 'sms.group.invite.join',
    request: GroupInviteParamsSchema.extend(JoinGroupBodySchema.shape).strict(),
    response: z.object({ status: z.literal('confirmation_sent') }),
    description: 'Text a number a confirmation; it joins once it replies YES',
  }),
} as const;

/** Calls answered by the sms service (subjects `sms.*`): texts sent and recorded, and the text channel. */
export const SMS_RPC = { ...SMS_MESSAGE_CALLS, ...SMS_CHANNEL_CALLS } as const;

/** What became of a reminder's text (see SMS_REMINDER_RPC). */
export const REMINDER_TEXT_OUTCOMES = ['queued', 'duplicate', 'no_number', 'opted_out', 'over_allowance', 'refused'] as const;

/**
 * Reminders by text (issue 26): the chat service owns reminders and asks the sms service, which owns
 * texting, to text one at its time, as the reminder's owner (the caller). The text goes through the
 * outbound queue with the allowance, STOP and the operator's budgets; the reminder's id is the
 * idempotency key (asked again, it answers `duplicate` and texts nothing).
 */
export const SMS_REMINDER_RPC = {
  deliver: defineRpc({
    subject: 'sms.reminder.deliver',
    request: z.object({ reminder_id: z.uuid(), body: z.string().min(1).max(480) }).strict(),
    response: z.object({ status: z.enum(REMINDER_TEXT_OUTCOMES) }),
    description: "Text a reminder to the caller's number, once per reminder",
  }),
} as const;

/** The outbound queue and usage facts (JetStream, through the sms service's outbox). */
export const SMS_EVENTS = {
  /** One text to send: the row is written with the event, the consumer sends it once (its id is the idempotency key). */
  outbound: defineEvent({
    subject: 'events.sms.outbound',
    payload: z.object({ message_id: z.uuid() }),
    description: 'A text waits in the outbound queue',
  }),
  usage: defineEvent({
    subject: 'events.sms.usage',
    payload: z.object({ user_id: UserIdSchema, period: z.string(), texts_used: z.number().int(), monthly_allowance: z.number().int() }),
    description: "A user's monthly text usage changed",
  }),
} as const;
