import { E164Schema } from '@app/contracts/sms';
import { envHelpers, runtimeEnvSchema } from '@app/platform';
import { z } from 'zod';

/** A comma-separated list of numbers in E.164 form. */
const numberList = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(E164Schema).max(100));

const TWILIO_CREDENTIALS = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM_NUMBER'] as const;

/**
 * The sms service's variables. Texts go to Twilio when its three credentials are set, else to the
 * console sink and the development inbox; `SMS_PROVIDER` forces one or the other.
 */
export const smsEnvSchema = z
  .object({
    /** The account SID (`AC` and 32 hex digits), from the Twilio console. */
    TWILIO_ACCOUNT_SID: z
      .string()
      .regex(/^AC[0-9a-fA-F]{32}$/, 'must be a Twilio account SID (AC and 32 hex digits)')
      .optional(),
    TWILIO_AUTH_TOKEN: z.string().min(1).optional(),
    /** The number texts come from (E.164). */
    TWILIO_FROM_NUMBER: E164Schema.optional(),
    /** Where the Twilio REST API lives; tests point it at a local fake. */
    TWILIO_API_BASE_URL: envHelpers.urlWithProtocols(['http', 'https']).default('https://api.twilio.com'),
    /** console | twilio; default: twilio when the three TWILIO_* credentials are set, else console. */
    SMS_PROVIDER: z.enum(['console', 'twilio']).optional(),
    /**
     * The development inbox (`/api/v1/dev/sms`, console sink only): off unless set; `npm start` sets
     * it for the local developer. Never allowed in production: it shows sign-in codes.
     */
    DEV_SMS_INBOX: envHelpers.bool.default(false),
    /** How long sign-in code texts are kept (they are useless once the code expires). */
    SMS_CODE_TEXT_RETENTION_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 366)
      .default(24),
    /** The public origin (https://assistant.example): media links in MMS and the status callback URL. */
    PUBLIC_URL: envHelpers.urlWithProtocols(['http', 'https']).optional(),
    /** The assistant's number without Twilio (the development phone texts it). */
    SMS_DEV_NUMBER: E164Schema.default('+15550100000'),
    /**
     * Group numbers (E.164, comma-separated). A member's groups are each on a number of this pool
     * that carries no other group of theirs (a number can carry many groups, each of another set of
     * members), so a member is in at most as many groups as the pool has numbers. Without Twilio,
     * SMS_DEV_GROUP_NUMBERS are the pool.
     */
    SMS_GROUP_NUMBERS: numberList(''),
    SMS_DEV_GROUP_NUMBERS: numberList('+15550100001,+15550100002,+15550100003'),
    /** Longest reply, in SMS segments (GSM-7 153 / UCS-2 67 characters each once split): longer ones are cut. */
    SMS_MAX_SEGMENTS: z.coerce.number().int().min(1).max(10).default(4),
    /** Replies per user per calendar month (UTC); past it, one notice and no more replies until the next month. */
    SMS_MONTHLY_ALLOWANCE: z.coerce.number().int().min(1).max(1_000_000).default(300),
    /** Share of the allowance at which the one "nearing the limit" notice goes out. */
    SMS_USAGE_NOTICE_SHARE: z.coerce.number().gt(0).lt(1).default(0.8),
    /** Text credit (replies left this month) below which the one credit notice of the month goes out; 0 turns it off. */
    SMS_CREDIT_NOTICE_BELOW: z.coerce.number().int().min(0).max(1_000_000).default(10),
    /** The assistant's name: a group text addressing it (or asking a question) is answered. */
    ASSISTANT_NAME: z.string().trim().min(1).max(40).default('Assistant'),
    /** How long a group invite link lives. */
    SMS_GROUP_INVITE_TTL_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 90)
      .default(72),
    /**
     * Group invitation texts (the public invite page's "reply YES to join") a day: to one number,
     * from one invite link, and from one group; past any of them the join is refused with 429.
     */
    SMS_JOIN_TEXTS_PER_NUMBER: z.coerce.number().int().min(1).max(100).default(3),
    SMS_JOIN_TEXTS_PER_INVITE: z.coerce.number().int().min(1).max(10_000).default(10),
    SMS_JOIN_TEXTS_PER_GROUP: z.coerce.number().int().min(1).max(10_000).default(20),
    /** A keyword's reply (HELP, START when already subscribed, the list of invitations) goes to a number once per window. */
    SMS_KEYWORD_REPLY_WINDOW_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 31)
      .default(24),
    /**
     * The operator's ceiling on every text the channel sends, all replicas together: past the
     * minute's, texts wait for the next minute; past the day's (UTC), they are held and not sent
     * (status `held`), the metric assistant_sms_texts_held_total counts them and an error is logged.
     */
    SMS_TEXTS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
    SMS_TEXTS_PER_DAY: z.coerce.number().int().min(1).max(100_000_000).default(50_000),
    /** ISO countries whose numbers are never texted (the service is not offered there); as the auth service's. */
    BLOCKED_COUNTRIES: z
      .string()
      .default('CN')
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim().toUpperCase())
          .filter(Boolean),
      ),
    /** Groups one account may create a day, and invite links one group may make a day (429 past them). */
    SMS_GROUPS_PER_DAY: z.coerce.number().int().min(1).max(1000).default(5),
    SMS_INVITES_PER_GROUP_PER_DAY: z.coerce.number().int().min(1).max(1000).default(20),
    /** Texts answered at once by one replica (each waits for the model). */
    SMS_INBOUND_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(64),
    NODE_ENV: runtimeEnvSchema.shape.NODE_ENV,
  })
  .superRefine((env, context) => {
    const own = [env.TWILIO_FROM_NUMBER, env.SMS_DEV_NUMBER].filter(Boolean);
    for (const [name, pool] of [
      ['SMS_GROUP_NUMBERS', env.SMS_GROUP_NUMBERS],
      ['SMS_DEV_GROUP_NUMBERS', env.SMS_DEV_GROUP_NUMBERS],
    ] as const) {
      if (pool.some((n) => own.includes(n))) {
        context.addIssue({
          code: 'custom',
          path: [name],
          message: "must not hold the assistant's own number (a group number is for groups only)",
        });
      }
      if (new Set(pool).size !== pool.length) context.addIssue({ code: 'custom', path: [name], message: 'lists a number twice' });
    }
    if (env.DEV_SMS_INBOX && env.NODE_ENV === 'production') {
      context.addIssue({
        code: 'custom',
        path: ['DEV_SMS_INBOX'],
        message: 'must be off when NODE_ENV is production (the inbox shows sign-in codes)',
      });
    }
    if (env.SMS_PROVIDER !== 'twilio') return;
    for (const name of TWILIO_CREDENTIALS) {
      if (!env[name]) context.addIssue({ code: 'custom', path: [name], message: 'required when SMS_PROVIDER is twilio' });
    }
  });
export type SmsConfig = z.output<typeof smsEnvSchema>;
export type SmsProvider = 'console' | 'twilio';

/** The provider the configuration selects. */
export function smsProviderOf(config: SmsConfig): SmsProvider {
  if (config.SMS_PROVIDER) return config.SMS_PROVIDER;
  return TWILIO_CREDENTIALS.every((name) => config[name]) ? 'twilio' : 'console';
}

/** The Twilio credentials set while others are missing (so texts silently go to the console). */
export function incompleteTwilioCredentials(config: SmsConfig): { set: string[]; missing: string[] } | null {
  const set = TWILIO_CREDENTIALS.filter((name) => config[name]);
  if (set.length === 0 || set.length === TWILIO_CREDENTIALS.length) return null;
  return { set, missing: TWILIO_CREDENTIALS.filter((name) => !config[name]) };
}
