import { defineRoute } from '../route';
import { VersionResponseSchema } from '../schemas';

/** The routes of the area `version` (`API.version`). */
export const versionRoutes = {
  commit: defineRoute({
    method: 'GET',
    path: '/api/v1/version/commit',
    summary: 'The commit of the running build (never cached)',
    tag: 'version',
    auth: 'public',
    response: VersionResponseSchema,
  }),
} as const;
