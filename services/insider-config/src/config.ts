import { z } from 'zod';

/** The insider-config service's variables. */
export const insiderConfigEnvSchema = z.object({
  /** User ids that are insiders by operator decision (comma-separated); the database may name more. */
  INSIDER_USER_IDS: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .default([]),
});
export type InsiderConfigEnv = z.output<typeof insiderConfigEnvSchema>;
