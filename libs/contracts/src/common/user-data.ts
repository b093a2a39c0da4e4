import { z } from 'zod';
import { defineRpc } from './contract';
import type { ServiceName } from './services';

export const UserIdSchema = z.uuid();

/**
 * Every service answers `<service>.user.export` with all it holds about one user, as rows per
 * table; the gateway puts each service's answer into the account export zip.
 */
export function userExportContract(service: ServiceName | (string & {})) {
  return defineRpc({
    subject: `${service}.user.export`,
    request: z.object({ user_id: UserIdSchema }).strict(),
    response: z.object({ tables: z.record(z.string(), z.array(z.record(z.string(), z.unknown()))) }),
    description: `Everything the ${service} service holds about a user`,
  });
}
