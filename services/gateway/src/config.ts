import { resolve } from 'node:path';
import { envHelpers } from '@app/platform';
import { z } from 'zod';

/** The gateway's own variables (beside the runtime ones every process reads). */
export const gatewayEnvSchema = z.object({
  /** 0 picks a free port (tests). */
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** Interface to listen on; containers set 0.0.0.0. */
  HOST: z.string().default('127.0.0.1'),
  /** The commit reported by /api/v1/version/commit; the build records it when unset. */
  GIT_COMMIT: z.string().max(64).optional(),
  /** The built web client served at `/`; unset or missing means a plain placeholder page. */
  WEB_DIST_DIR: z.string().default(resolve(__dirname, '../../../web/dist')),
  /** Largest JSON body accepted, in bytes. */
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(50 * 1024 * 1024)
    .default(1024 * 1024),
  /** Trust X-Forwarded-* from a proxy in front (an Ingress, a load balancer). */
  TRUST_PROXY: envHelpers.bool.default(false),
  /** Requests per minute per client address on /api/v1, before 429. */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(1200),
  /** Header a trusted proxy sets to the client's country (ISO code); empty turns region blocking off. */
  REGION_HEADER: z.string().toLowerCase().default('cf-ipcountry'),
  /** Countries the service is not offered in (451 for every API call from there). */
  BLOCKED_COUNTRIES: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim().toUpperCase())
        .filter(Boolean),
    )
    .default(['CN']),
  /** The public origin (https://assistant.example) for OAuth callbacks; the request's host when unset. */
  PUBLIC_URL: envHelpers.urlWithProtocols(['http', 'https']).optional(),
  /** Google's redirect flow (passport): the popup flow needs only the auth service's settings. */
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  /** Read only to open the page's security policy to Apple's and Firebase's sign-in scripts (the auth service uses them). */
  APPLE_SERVICE_ID: z.string().optional(),
  FIREBASE_PROJECT_ID: z.string().optional(),
  GOOGLE_AUTHORIZATION_URL: envHelpers.urlWithProtocols(['http', 'https']).default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_TOKEN_URL: envHelpers.urlWithProtocols(['http', 'https']).default('https://oauth2.googleapis.com/token'),
  /** Longest silence in a reply stream before the gateway gives up on it (beyond the model's own stall limit). */
  STREAM_IDLE_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(900_000).default(120_000),
  /**
   * How long the chat service has to accept a reply stream (a live one does in milliseconds): past
   * it, the request goes once more to the chat service (another replica), then is answered 503.
   * At least 1 s: a service starts no stream in the last 250 ms before the deadline (its acceptance
   * would come too late: STREAM_ACCEPT_MARGIN_MS).
   */
  STREAM_ACCEPT_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(60_000).default(2_000),
  /** New guests (POST /api/v1/auth/anon) per client address per hour, before 429. */
  GUESTS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(60),
  /**
   * How long the gateway trusts an "active" answer about a session before asking the auth service
   * again (ended sessions are marked at once by the auth service; this bounds staleness only if that
   * mark is lost).
   */
  SESSION_STATUS_CACHE_SECONDS: z.coerce.number().int().min(1).max(300).default(30),
  /** Time a readiness check waits for each service. */
  READINESS_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(2_000),
});
export type GatewayConfig = z.output<typeof gatewayEnvSchema>;
