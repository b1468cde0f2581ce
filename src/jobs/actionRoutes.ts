import type { RouteDef } from '../http/route';

/** Replay and bulk actions on jobs (issue 21). Registered before `jobRoutes()`: `/api/jobs/bulk/…` must win over `/api/jobs/{id}/…`. */
export function jobActionRoutes(): RouteDef[] {
  return [];
}
