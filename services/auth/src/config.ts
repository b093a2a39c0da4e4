import { envHelpers } from '@app/platform';
import { z } from 'zod';
import { KeyEncryptionKeySchema } from './tokens/key-envelope';

const url = envHelpers.urlWithProtocols(['http', 'https']);
const list = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim().toUpperCase())
    .filter(Boolean),
);

/** The auth service's variables. Providers are off until their credentials are set. */
export const authEnvSchema = z.object({
  AUTH_TOKEN_ISSUER: z.string().min(1).default('assistant'),
  /** Encrypts the signing keys and the code pepper at rest (32 bytes, base64); required in production. */
  AUTH_KEY_ENCRYPTION_KEY: KeyEncryptionKeySchema.optional(),
  AUTH_TOKEN_AUDIENCE: z.string().min(1).default('assistant-api'),
  /** Lifetime of a session and its access token. */
  AUTH_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(300)
    .max(400 * 24 * 3600)
    .default(30 * 24 * 3600),
  PHONE_CODE_TTL_SECONDS: z.coerce.number().int().min(60).max(3600).default(600),
  PHONE_CODE_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  /** Codes a number may receive per 10 minutes, and an address per hour (against SMS pumping). */
  PHONE_CODES_PER_NUMBER: z.coerce.number().int().min(1).max(100).default(3),
  PHONE_CODES_PER_IP: z.coerce.number().int().min(1).max(10_000).default(10),
  /** Code checks an address may make per hour. */
  PHONE_VERIFY_PER_IP: z.coerce.number().int().min(1).max(10_000).default(30),
  /** ISO country codes whose phone numbers are refused (the service is not offered there). */
  BLOCKED_COUNTRIES: list.default(['CN']),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_TOKEN_URL: url.default('https://oauth2.googleapis.com/token'),
  GOOGLE_JWKS_URL: url.default('https://www.googleapis.com/oauth2/v3/certs'),
  APPLE_SERVICE_ID: z.string().optional(),
  APPLE_APP_CLIENT_ID: z.string().optional(),
  APPLE_TEAM_ID: z.string().optional(),
  APPLE_KEY_ID: z.string().optional(),
  /** The .p8 key (PEM); `\n` escapes are accepted. */
  APPLE_PRIVATE_KEY: z.string().optional(),
  APPLE_REDIRECT_URI: z.string().optional(),
  APPLE_TOKEN_URL: url.default('https://appleid.apple.com/auth/token'),
  APPLE_JWKS_URL: url.default('https://appleid.apple.com/auth/keys'),
  FIREBASE_PROJECT_ID: z.string().optional(),
  FIREBASE_API_KEY: z.string().optional(),
  FIREBASE_AUTH_DOMAIN: z.string().optional(),
  FIREBASE_JWKS_URL: url.default('https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com'),
  /** Campaigns as JSON: `[{"campaign_name","title","text","starter_prompts":[...]}]` (the database may hold more). */
  CAMPAIGNS_JSON: z.string().optional(),
  /** How long `DELETE /users/me` waits for every service to purge before answering 202. */
  ACCOUNT_DELETION_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(8_000),
});
export type AuthConfig = z.output<typeof authEnvSchema>;
