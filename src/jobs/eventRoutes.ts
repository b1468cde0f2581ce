import type { RouteDef } from '../http/route';

/** Live job updates (Server-Sent Events) and the read-only job tokens a browser subscribes with (issue 21). */
export function jobEventRoutes(): RouteDef[] {
  return [];
}
