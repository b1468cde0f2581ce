import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import type { Permission } from '../../auth/permissions';
import { route, type RouteDef } from '../../http/route';
import { actorOf } from '../actor';
import { twinRoutes } from '../twins';
import { errorSpecs, linkCheckErrorSpecs } from './errors';
import { contentItemSchema } from './contentItemJson';
import { contentIdParams, createBody, idParams, updateBody } from './schemas';
import { createContent, deleteContent, getContent, updateContent } from './service';
import { URL_RULE, URL_SOURCES, urlOf } from './url';
import { scheduleWriteErrorSpecs, stageErrorSpecs } from '../schedule/errors';
import { scheduledPublishOf, scheduledPublishSchema } from '../schedule/view';
import * as docs from './docs';

const tags = ['Marketing content'];
const agent = (permission: Permission) => ({ kind: 'agent', permission }) as const;
const session = { kind: 'session' } as const;

const agentItemSchema = contentItemSchema
  .extend({
    url: z.string().nullable().describe(`Public URL of the item on its site. ${URL_RULE}`),
    url_source: z.enum(URL_SOURCES).nullable().describe('Which rule gave url (see url); null with a null url.'),
    scheduled_publish: scheduledPublishSchema,
  })
  .meta({ id: 'AgentContentItem' });

const scheduleErrors = [...scheduleWriteErrorSpecs, ...stageErrorSpecs];
const updateErrors = [errorSpecs.notFound, errorSpecs.invalidReference, errorSpecs.notLinked, ...linkCheckErrorSpecs, ...scheduleErrors];

export function contentItemRoutes(): RouteDef[] {
  return [
    ...twinRoutes(
      {
        method: 'post',
        path: '/marketing/content',
        operationId: 'createMarketingContent',
        tags,
        idempotent: true,
        permission: 'marketing.content:create',
        summary: 'Create a content item.',
        description: docs.createMarketingContentDescription,
        body: createBody,
        responses: { 201: { description: 'The item', schema: contentItemSchema } },
        errors: [errorSpecs.invalidReference, errorSpecs.notLinked, ...linkCheckErrorSpecs, ...scheduleErrors],
      },
      async ({ body, auth, deps }) => ({
        status: 201,
        body: await createContent(deps, accountOf(auth), body, actorOf(auth)),
      }),
    ),

    route(
      {
        method: 'get',
        path: '/api/marketing/content/{id}',
        operationId: 'getMarketingContent',
        tags,
        auth: session,
        summary: 'Get a content item with its grounding.',
        params: idParams,
        responses: { 200: { description: 'The item', schema: contentItemSchema } },
        errors: [errorSpecs.notFound],
      },
      async ({ params, auth, deps }) => ({ body: await getContent(deps.db, accountOf(auth), params.id) }),
    ),

    route(
      {
        method: 'get',
        path: '/api/agent/marketing/content/{contentId}',
        operationId: 'getMarketingContentAgent',
        tags,
        auth: agent('marketing.content:read'),
        summary: docs.getMarketingContentAgentSummary,
        params: contentIdParams,
        responses: { 200: { description: 'The item', schema: agentItemSchema } },
        errors: [errorSpecs.notFound],
      },
      async ({ params, auth, deps }) => {
        const item = await getContent(deps.db, accountOf(auth), params.contentId);
        return {
          body: {
            ...item,
            ...(await urlOf(deps.db, accountOf(auth), item)),
            scheduled_publish: await scheduledPublishOf(deps.db, accountOf(auth), item.id),
          },
        };
      },
    ),

    route(
      {
        method: 'put',
        path: '/api/marketing/content/{id}',
        operationId: 'putMarketingContent',
        tags,
        auth: session,
        summary: 'Save a content item as the editor sends it.',
        description: docs.putMarketingContentDescription,
        params: idParams,
        body: updateBody,
        responses: { 200: { description: 'The updated item', schema: contentItemSchema } },
        errors: updateErrors,
      },
      async ({ params, body, auth, deps }) => ({
        body: await updateContent(deps, accountOf(auth), params.id, body, 'settings', actorOf(auth)),
      }),
    ),

    route(
      {
        method: 'patch',
        path: '/api/agent/marketing/content/{contentId}',
        operationId: 'patchMarketingContentAgent',
        tags,
        auth: agent('marketing.content:update'),
        summary: 'Update a content item (agent).',
        description: docs.patchMarketingContentAgentDescription,
        params: contentIdParams,
        body: updateBody,
        responses: { 200: { description: 'The updated item', schema: contentItemSchema } },
        errors: updateErrors,
      },
      async ({ params, body, auth, deps }) => ({
        body: await updateContent(deps, accountOf(auth), params.contentId, body, 'top_level', actorOf(auth)),
      }),
    ),

    route(
      {
        method: 'delete',
        path: '/api/marketing/content/{id}',
        operationId: 'deleteMarketingContent',
        tags,
        auth: session,
        summary: 'Delete a content item with its versions, comments and reviews.',
        params: idParams,
        responses: { 204: { description: 'Deleted' } },
        errors: [errorSpecs.notFound],
      },
      async ({ params, auth, deps }) => {
        await deleteContent(deps, accountOf(auth), params.id);
        return { status: 204 };
      },
    ),

    route(
      {
        method: 'delete',
        path: '/api/agent/marketing/content/{contentId}',
        operationId: 'deleteMarketingContentAgent',
        tags,
        auth: agent('marketing.content:update'),
        summary: 'Delete a content item (agent) with its versions, comments and reviews.',
        params: contentIdParams,
        responses: { 204: { description: 'Deleted' } },
        errors: [errorSpecs.notFound],
      },
      async ({ params, auth, deps }) => {
        await deleteContent(deps, accountOf(auth), params.contentId);
        return { status: 204 };
      },
    ),
  ];
}
