import { z } from 'zod';
import type { RouteDef } from '../../http/route';
import { route } from '../../http/route';
import { actorOf } from './actor';
import { cmsCapabilities } from './contentSource';
import * as docs from './docs';
import { OPERATION_PERMISSION, kindOfVerb } from './permissions';
import { builderAccount } from './projectAccount';
import { cmsCapabilitiesSchema } from './resultJson';
import { AGENT_OPS_PATH, bodyInput, dispatch, inputOf, queryInput, runAgentOperation } from './service';

const BUILDER_PATH = '/api/builder/site-platform/{projectId}/ops';

const projectParams = z.object({ projectId: z.string() });
// asset_upload carries the file as base64 in the JSON body: up to the platform's 10 MB, plus base64's third.
const POST_BODY_LIMIT = 14 * 1024 * 1024;

export function sitePlatformOperationRoutes(): RouteDef[] {
  const agent = (method: 'get' | 'post') =>
    route(
      {
        method,
        path: AGENT_OPS_PATH,
        operationId: `sitePlatformAgentOp${method === 'get' ? 'Read' : 'Write'}`,
        summary: method === 'get' ? 'Run a site platform read operation' : 'Run a site platform write operation',
        description: docs.AGENT_OP,
        tags: ['Site platform'],
        auth: { kind: 'agent', permission: OPERATION_PERMISSION[kindOfVerb(method)] },
        ...(method === 'get' ? { query: queryInput } : { body: bodyInput, maxBodyBytes: POST_BODY_LIMIT }),
        responses: docs.RESULT,
        errors: docs.ERRORS,
      },
      async ({ query, body, auth, deps, ctx }) => {
        if (auth.kind !== 'agent') throw new Error('agent route without an agent key');
        const input = (ctx.method === 'GET' ? query : body) ?? {};
        return runAgentOperation(deps, auth, { method: ctx.method, input, idempotencyKey: ctx.get('idempotency-key') || undefined });
      },
    );

  const builder = (method: 'get' | 'post') =>
    route(
      {
        method,
        path: BUILDER_PATH,
        operationId: `sitePlatformBuilderOp${method === 'get' ? 'Read' : 'Write'}`,
        summary:
          method === 'get' ? 'Run a site platform read operation for a project' : 'Run a site platform write operation for a project',
        description: docs.BUILDER_OP,
        tags: ['Site platform'],
        auth: { kind: 'sessionOrAgentSecret' },
        params: projectParams,
        ...(method === 'get' ? { query: queryInput } : { body: bodyInput, maxBodyBytes: POST_BODY_LIMIT }),
        responses: docs.RESULT,
        errors: docs.ERRORS,
      },
      async ({ params, query, body, auth, deps, ctx }) => {
        const accountId = await builderAccount(deps.db, auth, params.projectId, ctx.get('x-account-id') || undefined);
        const input = inputOf(ctx.method, (query ?? {}) as Record<string, unknown>, body as Record<string, unknown> | undefined);
        const key = ctx.get('idempotency-key') || undefined;
        return dispatch({
          deps,
          accountId,
          projectId: params.projectId,
          method: ctx.method,
          input,
          actor: () => actorOf(deps.db, auth, ctx.get('x-agent-actor-label') || undefined),
          slotRoute: key ? `POST ${ctx.path}` : null,
          idempotencyKey: key,
          rawRequest: { projectId: params.projectId, body },
        });
      },
    );

  return [
    agent('get'),
    agent('post'),
    builder('get'),
    builder('post'),
    route(
      {
        method: 'get',
        path: '/api/builder/site-platform/{projectId}/cms-capabilities',
        operationId: 'sitePlatformCmsCapabilities',
        summary: "Read a project's CMS capabilities",
        tags: ['Site platform'],
        auth: { kind: 'sessionOrAgentSecret' },
        params: projectParams,
        responses: { 200: { description: "The project's CMS capabilities", schema: cmsCapabilitiesSchema } },
        description: docs.CMS_CAPABILITIES,
        errors: [docs.BUILDER_PROJECT_NOT_FOUND],
      },
      async ({ params, auth, deps, ctx }) => {
        const accountId = await builderAccount(deps.db, auth, params.projectId, ctx.get('x-account-id') || undefined);
        return { status: 200, body: await cmsCapabilities(deps, accountId, params.projectId) };
      },
    ),
  ];
}
