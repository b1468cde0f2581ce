import { purgeExpiredIdempotencyKeys } from '../src/http/idempotencyStore';
import type { ActivityDeps } from './deps';

/** Housekeeping of the service's own tables. */
export function createMaintenanceActivities(deps: ActivityDeps) {
  return {
    async purgeExpiredIdempotencyKeys(): Promise<number> {
      return purgeExpiredIdempotencyKeys(deps.db);
    },
  };
}
