import { z } from 'zod';
import { defineRpc } from './contract';
import type { ServiceName } from './services';

export const CheckResultSchema = z.object({
  status: z.enum(['up', 'down']),
  latency_ms: z.number().nonnegative(),
  detail: z.string().optional(),
});
export type CheckResult = z.infer<typeof CheckResultSchema>;

export const HealthReportSchema = z.object({
  service: z.string(),
  status: z.enum(['ready', 'not_ready']),
  checks: z.record(z.string(), CheckResultSchema),
});
export type HealthReport = z.infer<typeof HealthReportSchema>;

/** Every service answers `<service>.health.check` with the state of its own dependencies. */
export function healthContract(service: ServiceName | (string & {})) {
  return defineRpc({
    subject: `${service}.health.check`,
    request: z.object({}).strict(),
    response: HealthReportSchema,
    description: `Readiness of the ${service} service and its dependencies`,
  });
}
