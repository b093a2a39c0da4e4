import { envHelpers } from '@app/platform';
import { z } from 'zod';

const S3_VARIABLES = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;

/**
 * The files service's variables. With no S3_* set, objects live in a local folder (DATA_DIR/objects);
 * with all four, in that S3-compatible bucket (MinIO in docker compose).
 */
export const filesEnvSchema = z
  .object({
    /** Largest file accepted, in bytes (413 above). */
    FILES_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(1024 * 1024 * 1024)
      .default(20 * 1024 * 1024),
    /** Largest export zip taken for an import (issue 25), in bytes (413 above); at most 1 GiB, the gateway's multipart ceiling. */
    IMPORT_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(1024 * 1024 * 1024)
      .default(1024 * 1024 * 1024),
    /** Lifetime of a presigned link, in seconds. */
    FILES_SIGNED_URL_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 3600)
      .default(300),
    /** Key of the signed links (at least 32 characters); unset: one generated once and kept in the files schema. */
    FILES_URL_SIGNING_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    /** An upload session with no chunk for this long is dropped, with what it received. */
    FILES_UPLOAD_IDLE_SECONDS: z.coerce
      .number()
      .int()
      .min(10)
      .max(24 * 3600)
      .default(900),
    S3_ENDPOINT: envHelpers.urlWithProtocols(['http', 'https']).optional(),
    S3_BUCKET: z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid bucket name')
      .optional(),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    S3_REGION: z.string().default('us-east-1'),
    /** Path-style addressing (http://host/bucket/key), as MinIO expects; false for virtual-hosted buckets. */
    S3_FORCE_PATH_STYLE: envHelpers.bool.default(true),
  })
  .superRefine((env, ctx) => {
    const set = S3_VARIABLES.filter((name) => env[name] !== undefined);
    if (set.length === 0 || set.length === S3_VARIABLES.length) return;
    for (const name of S3_VARIABLES.filter((n) => env[n] === undefined)) {
      ctx.addIssue({ code: 'custom', path: [name], message: `is needed with ${set.join(', ')} (the S3 object store takes all four)` });
    }
  });
export type FilesConfig = z.output<typeof filesEnvSchema>;

/** The S3 settings when the object store is S3, else null (the local folder). */
export function s3SettingsOf(config: FilesConfig) {
  if (!config.S3_ENDPOINT || !config.S3_BUCKET || !config.S3_ACCESS_KEY_ID || !config.S3_SECRET_ACCESS_KEY) return null;
  return {
    endpoint: config.S3_ENDPOINT,
    bucket: config.S3_BUCKET,
    accessKeyId: config.S3_ACCESS_KEY_ID,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    region: config.S3_REGION,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
  };
}
