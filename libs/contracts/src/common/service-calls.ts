import { healthContract } from './health';
import type { ServiceName } from './services';
import { userExportContract } from './user-data';

/**
 * The calls every service answers besides its own: its readiness (`<service>.health.check`) and
 * all it holds about a user (`<service>.user.export`). Each service's `*_RPC` starts with them.
 */
export function commonCalls(service: ServiceName) {
  return { health: healthContract(service), export: userExportContract(service) };
}
