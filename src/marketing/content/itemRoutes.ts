import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import type { Permission } from '../../auth/permissions';
import { route, type RouteDef } from '../../http/route';
import { actorOf } from '../actor';
import { twinRoutes } from '../twins';
import { errorSpecs, linkCheckErrorSpecs } from './errors';
import { contentIdParams, contentItemSchema, createBody, idParams, updateBody } from './schemas';
import { createContent, deleteContent, getContent, updateContent } from './service';
import { scheduledPublishOf, urlOf } from './url';

const tags = ['Marketing content'];
const agent = (permission: Permission) => ({ kind: 'agent', permission }) as const;
const session = { kind: 'session' } as const;

const writeRules = 'Ids (avatar_id, journey_id, before_after_grid_id, category_id) are checked against your account before '
  + 'anything is written (400 `invalid_reference`). With a journey, `journey_stage` must be one of its map\'s stages '
  + '(matched ignoring case, stored as the map spells it; 400 otherwise). A `cms_link` must name a website project of '
  + 'your account (`/api/projects`; another account\'s answers like '
  + 'an unknown one) and a collection on the site that project resolves to, read from the platform through the snapshot '
  + 'cache: otherwise 400 `invalid_reference`, also when the project resolves to no site. A link naming the stored '
  + 'project and collection is not re-checked. A platform failure during the check keeps its code (502, 504). `settings` is merged into the stored object key by key (a key sent '
  + 'as null is removed); a settings object with only `distribution_plan` leaves its siblings alone. A schedule request '
  + '(`scheduled_publish_at` different from the stored one) needs a `cms_link` (409 `not_linked`) and a future instant; '
  + '`cancel_scheduled_publish: true` clears it. `published_at` is read-only: stamped the first time `status` becomes '
  + '`published`. Each change writes a version row (see the versions route).';

const updateRules = 'An absent key leaves the field as it is; null clears it (null on scheduled_publish_at changes nothing: '
  + 'use cancel_scheduled_publish). Read-only members of the item (id, the { id, name } objects, timestamps, url …) may '
  + 'be echoed back and are ignored. A write that changes nothing writes no version and keeps updated_at.';

const agentItemSchema = contentItemSchema.extend({
  url: z.string().nullable().describe('Public URL of the item on its site; null until the site integration knows it.'),
  url_source: z.string().nullable().describe('Where url came from; null with a null url.'),
  scheduled_publish: z.object({ at: z.string(), status: z.literal('scheduled') }).nullable()
    .describe('The pending schedule, or null when nothing is scheduled.'),
});

const updateErrors = [errorSpecs.notFound, errorSpecs.invalidReference, errorSpecs.notLinked, ...linkCheckErrorSpecs];

export function contentItemRoutes(): RouteDef[] {
  return [
    ...twinRoutes({
      method: 'post', path: '/marketing/content', operationId: 'createMarketingContent', tags, idempotent: true,
      permission: 'marketing.content:create',
      summary: 'Create a content item.',
      description: `\`title\` is required; \`status\` defaults to \`draft\`, \`content_type\` to \`blog_post\`, \`deploy_target\` to `
        + `\`production\`. When both are sent, the top-level \`target_keyword\` wins over \`settings.target_keyword\`; `
        + `either one is stored in the column and mirrored into settings. ${writeRules} Honours Idempotency-Key.`,
      body: createBody,
      responses: { 201: { description: 'The item', schema: contentItemSchema } },
      errors: [errorSpecs.invalidReference, errorSpecs.notLinked, ...linkCheckErrorSpecs],
    }, async ({ body, auth, deps }) => ({
      status: 201, body: await createContent(deps, accountOf(auth), body, actorOf(auth)),
    })),

    route({
      method: 'get', path: '/api/marketing/content/{id}', operationId: 'getMarketingContent', tags, auth: session,
      summary: 'Get a content item with its grounding.',
      params: idParams,
      responses: { 200: { description: 'The item', schema: contentItemSchema } },
      errors: [errorSpecs.notFound],
    }, async ({ params, auth, deps }) => ({ body: await getContent(deps.db, accountOf(auth), params.id) })),

    route({
      method: 'get', path: '/api/agent/marketing/content/{contentId}', operationId: 'getMarketingContentAgent', tags,
      auth: agent('marketing.content:read'),
      summary: 'Get a content item (agent): adds url, url_source and scheduled_publish.',
      params: contentIdParams,
      responses: { 200: { description: 'The item', schema: agentItemSchema } },
      errors: [errorSpecs.notFound],
    }, async ({ params, auth, deps }) => {
      const item = await getContent(deps.db, accountOf(auth), params.contentId);
      return { body: { ...item, ...urlOf(item), scheduled_publish: scheduledPublishOf(item) } };
    }),

    route({
      method: 'put', path: '/api/marketing/content/{id}', operationId: 'putMarketingContent', tags, auth: session,
      summary: 'Save a content item as the editor sends it.',
      description: `${updateRules} A keyword typed into \`settings.target_keyword\` (one that differs from the stored `
        + 'keyword) wins over the echoed top-level `target_keyword`; when only the top-level one differs, it is taken; '
        + `both end equal. ${writeRules}`,
      params: idParams, body: updateBody,
      responses: { 200: { description: 'The updated item', schema: contentItemSchema } },
      errors: updateErrors,
    }, async ({ params, body, auth, deps }) => ({
      body: await updateContent(deps, accountOf(auth), params.id, body, 'settings', actorOf(auth)),
    })),

    route({
      method: 'patch', path: '/api/agent/marketing/content/{contentId}', operationId: 'patchMarketingContentAgent', tags,
      auth: agent('marketing.content:update'),
      summary: 'Update a content item (agent).',
      description: `${updateRules} The top-level \`target_keyword\` wins over \`settings.target_keyword\`; both end equal. ${writeRules}`,
      params: contentIdParams, body: updateBody,
      responses: { 200: { description: 'The updated item', schema: contentItemSchema } },
      errors: updateErrors,
    }, async ({ params, body, auth, deps }) => ({
      body: await updateContent(deps, accountOf(auth), params.contentId, body, 'top_level', actorOf(auth)),
    })),

    route({
      method: 'delete', path: '/api/marketing/content/{id}', operationId: 'deleteMarketingContent', tags, auth: session,
      summary: 'Delete a content item with its versions, comments and reviews.',
      params: idParams,
      responses: { 204: { description: 'Deleted' } },
      errors: [errorSpecs.notFound],
    }, async ({ params, auth, deps }) => {
      await deleteContent(deps.db, accountOf(auth), params.id);
      return { status: 204 };
    }),

    route({
      method: 'delete', path: '/api/agent/marketing/content/{contentId}', operationId: 'deleteMarketingContentAgent', tags,
      auth: agent('marketing.content:update'),
      summary: 'Delete a content item (agent) with its versions, comments and reviews.',
      params: contentIdParams,
      responses: { 204: { description: 'Deleted' } },
      errors: [errorSpecs.notFound],
    }, async ({ params, auth, deps }) => {
      await deleteContent(deps.db, accountOf(auth), params.contentId);
      return { status: 204 };
    }),
  ];
}
