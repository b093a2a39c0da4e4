import { z } from 'zod';
import { CheckResultSchema } from '../common/health';

/** `GET /api/v1/version/commit`: the build's commit; the client reloads when it changes. */
export const VersionResponseSchema = z.object({ commit: z.string() });
export type VersionResponse = z.infer<typeof VersionResponseSchema>;

/** `GET /healthz`: the process is alive. */
export const LivenessResponseSchema = z.object({ status: z.literal('ok') });

/** `GET /readyz`: every dependency the gateway needs answers (each service, the bus, the cache). */
export const ReadinessResponseSchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  checks: z.record(z.string(), CheckResultSchema),
});
export type ReadinessResponse = z.infer<typeof ReadinessResponseSchema>;

/** `GET /readyz?scope=gateway`: only the gateway's own dependencies (for an orchestrator's probe). */
export const ReadinessQuerySchema = z.object({ scope: z.enum(['all', 'gateway']).default('all') });
