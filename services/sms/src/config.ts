import { E164Schema } from '@app/contracts/sms';
import { envHelpers } from '@app/platform';
import { z } from 'zod';

const TWILIO_CREDENTIALS = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM_NUMBER'] as const;

/**
 * The sms service's variables. Texts go to Twilio when its three credentials are set, else to the
 * console sink and the development inbox; `SMS_PROVIDER` forces one or the other.
 */
export const smsEnvSchema = z
  .object({
    /** The account SID (`AC` and 32 hex digits), from the Twilio console. */
    TWILIO_ACCOUNT_SID: z.string().regex(/^AC[0-9a-fA-F]{32}$/, 'must be a Twilio account SID (AC and 32 hex digits)').optional(),
    TWILIO_AUTH_TOKEN: z.string().min(1).optional(),
    /** The number texts come from (E.164). */
    TWILIO_FROM_NUMBER: E164Schema.optional(),
    /** Where the Twilio REST API lives; tests point it at a local fake. */
    TWILIO_API_BASE_URL: envHelpers.urlWithProtocols(['http', 'https']).default('https://api.twilio.com'),
    /** console | twilio; default: twilio when the three TWILIO_* credentials are set, else console. */
    SMS_PROVIDER: z.enum(['console', 'twilio']).optional(),
  })
  .superRefine((env, context) => {
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
