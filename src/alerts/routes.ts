import type { RouteDef } from '../http/route';

/** Account webhook endpoints for job and operations events (issue 21). */
export function alertRoutes(): RouteDef[] {
  return [];
}
