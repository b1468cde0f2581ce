import type { z } from 'zod';
import type { Permission } from '../auth/permissions';
import { route, type RouteDef, type RouteHandler, type RouteSpec } from '../http/route';

type Out<T> = T extends z.ZodType ? z.output<T> : undefined;

export type TwinSpec<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> = Omit<RouteSpec<P, Q, B>, 'auth' | 'path'> & {
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
export function twinRoutes<P extends z.ZodType = never, Q extends z.ZodType = never, B extends z.ZodType = never>(
  spec: TwinSpec<P, Q, B>,
  handler: RouteHandler<Out<P>, Out<Q>, Out<B>>,
): RouteDef[] {
  const { permission, path, operationId, readOnlyMayPost, ...rest } = spec;
  return [
    route<P, Q, B>({ ...rest, operationId, path: `/api${path}`, auth: { kind: 'session' } }, handler),
    route<P, Q, B>(
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
