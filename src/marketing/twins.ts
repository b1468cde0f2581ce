import type { z } from 'zod';
import type { Permission } from '../auth/permissions';
import { route, type Responses, type RouteDef, type RouteSpec, type SpecHandler } from '../http/route';

export type TwinSpec<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends Responses = Responses> = Omit<
  RouteSpec<P, Q, B, R>,
  'auth' | 'path'
> & {
  /** Path below the prefix: `/marketing/content/{id}` becomes `/api/…` and `/api/agent/…`. */
  path: string;
  /** What an agent key must hold; session users (any role) hold every marketing permission. */
  permission: Permission;
  /** The agent route's POST may be called by a read-only key (it restricts what such a key's request does itself). */
  readOnlyMayPost?: boolean;
};

/**
 * A dashboard route (`/api/...`, session token) and its agent twin (`/api/agent/...`, agent key with `permission`)
 * from one declaration and one handler, so the two can never drift apart.
 */
export function twinRoutes<
  P extends z.ZodType = never,
  Q extends z.ZodType = never,
  B extends z.ZodType = never,
  const R extends Responses = Responses,
>(spec: TwinSpec<P, Q, B, R>, handler: SpecHandler<P, Q, B, R>): RouteDef[] {
  const { permission, path, operationId, readOnlyMayPost, ...rest } = spec;
  return [
    route<P, Q, B, R>({ ...rest, operationId, path: `/api${path}`, auth: { kind: 'session' } }, handler),
    route<P, Q, B, R>(
      {
        ...rest,
        operationId: `${operationId}Agent`,
        path: `/api/agent${path}`,
        auth: { kind: 'agent', permission, ...(readOnlyMayPost ? { readOnlyMayPost } : {}) },
      },
      handler,
    ),
  ];
}
