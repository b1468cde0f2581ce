import type { z } from 'zod';
import type { Permission } from '../auth/permissions';
import type { AuthSpec } from '../auth/types';
import { route, type Responses, type RouteDef, type RouteSpec, type SpecHandler } from '../http/route';

export type ProjectTwinSpec<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends Responses = Responses> = Omit<
  RouteSpec<P, Q, B, R>,
  'auth' | 'path' | 'tags'
> & {
  /** Path below the prefix: `/projects/{id}` becomes `/api/projects/{id}` and `/api/agent/projects/{id}`. */
  path: string;
};

/**
 * The route declarer of the projects area (projects and their deployments): one declaration and one handler give the
 * dashboard route (session; any role reads, owner or admin writes) and its agent twin (`projects:read` or
 * `projects:write`; a read-only key only reads), so the two can never drift apart.
 */
export const projectTwin =
  (tags: string[]) =>
  <P extends z.ZodType = never, Q extends z.ZodType = never, B extends z.ZodType = never, const R extends Responses = Responses>(
    access: 'read' | 'write',
    spec: ProjectTwinSpec<P, Q, B, R>,
    handler: SpecHandler<P, Q, B, R>,
  ): RouteDef[] => {
    const session: AuthSpec = access === 'write' ? { kind: 'session', roles: ['owner', 'admin'] } : { kind: 'session' };
    const permission: Permission = access === 'write' ? 'projects:write' : 'projects:read';
    return [
      route<P, Q, B, R>({ ...spec, tags, path: `/api${spec.path}`, auth: session }, handler),
      route<P, Q, B, R>(
        { ...spec, tags, operationId: `${spec.operationId}Agent`, path: `/api/agent${spec.path}`, auth: { kind: 'agent', permission } },
        handler,
      ),
    ];
  };
