import { defineRoute } from '../route';
import { LivenessResponseSchema, ReadinessQuerySchema, ReadinessResponseSchema } from '../schemas';

/** The routes of the area `operations` (`API.operations`). */
export const operationsRoutes = {
  liveness: defineRoute({
    method: 'GET',
    path: '/healthz',
    summary: 'Liveness: the process answers',
    tag: 'operations',
    auth: 'public',
    response: LivenessResponseSchema,
  }),
  readiness: defineRoute({
    method: 'GET',
    path: '/readyz',
    summary: "Readiness: every service and dependency answers (scope=gateway: the gateway's own bus and cache only)",
    tag: 'operations',
    auth: 'public',
    query: ReadinessQuerySchema,
    response: ReadinessResponseSchema,
    otherAnswers: { 503: ReadinessResponseSchema },
  }),
} as const;
