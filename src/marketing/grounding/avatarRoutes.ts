import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import { optionalText, requiredText } from '../../http/fields';
import { idParams } from '../../http/ids';
import type { RouteDef } from '../../http/route';
import { twinRoutes } from '../twins';
import { avatarAttributes } from './avatarAttributes';
import * as avatars from './avatarService';
import type { AvatarRow } from './avatarService';
import { listQuery, stamp } from './listing';
import { listEnvelope, listEnvelopeSchema } from '../../http/pagination';
import * as docs from './docs';

const tags = ['Marketing grounding'];

const createBody = z.strictObject({
  name: requiredText(255).describe('1..255 characters, e.g. "Busy Practice Owner".'),
  description: optionalText(5000).optional().describe('Up to 5000 characters; "" or null means none.'),
  attributes: avatarAttributes.optional().describe(`${avatarAttributes.description} \`{}\` when absent.`),
});

const patchBody = z.strictObject({
  name: requiredText(255).optional(),
  description: optionalText(5000).optional().describe('null or "" clears it.'),
  attributes: avatarAttributes
    .optional()
    .describe(`${avatarAttributes.description} Replaces the stored object as a whole: send every key you keep.`),
});

const avatarSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    attributes: z
      .record(z.string(), z.unknown())
      .describe('Flat persona detail: `role`, `goals`, `pains`, `objections`, `channels` and any other key.'),
    created_at: z.string().describe('ISO 8601'),
    updated_at: z.string().describe('ISO 8601'),
  })
  .meta({ id: 'Avatar' });

const toAvatarJson = (a: AvatarRow): z.infer<typeof avatarSchema> => ({
  id: a.id,
  name: a.name,
  description: a.description,
  attributes: a.attributes,
  created_at: stamp(a.created_at),
  updated_at: stamp(a.updated_at),
});

const notFound = {
  status: 404,
  code: 'avatar_not_found',
  description: "No avatar with this id in your account (also for a malformed id or another account's).",
};
const onDelete = 'Content items that name the avatar keep existing with `avatar_id` (and `customer_avatar`) null.';

export function avatarRoutes(): RouteDef[] {
  return [
    ...twinRoutes(
      {
        method: 'get',
        path: '/marketing/avatars',
        operationId: 'listMarketingAvatars',
        tags,
        permission: 'marketing.content:read',
        summary: 'List customer avatars, newest first.',
        description: docs.listMarketingAvatarsDescription,
        query: listQuery,
        responses: { 200: { description: 'A page of avatars', schema: listEnvelopeSchema(avatarSchema) } },
      },
      async ({ query, auth, deps }) => {
        const { rows, total } = await avatars.listAvatars(deps.db, accountOf(auth), query);
        return { body: listEnvelope(rows.map(toAvatarJson), total, query) };
      },
    ),

    ...twinRoutes(
      {
        method: 'post',
        path: '/marketing/avatars',
        operationId: 'createMarketingAvatar',
        tags,
        permission: 'marketing.content:create',
        idempotent: true,
        summary: 'Create a customer avatar.',
        description: docs.createMarketingAvatarDescription,
        body: createBody,
        responses: { 201: { description: 'The avatar', schema: avatarSchema } },
      },
      async ({ body, auth, deps }) => {
        const row = await avatars.createAvatar(deps.db, accountOf(auth), body);
        return { status: 201, body: toAvatarJson(row) };
      },
    ),

    ...twinRoutes(
      {
        method: 'get',
        path: '/marketing/avatars/{id}',
        operationId: 'getMarketingAvatar',
        tags,
        permission: 'marketing.content:read',
        summary: 'Get a customer avatar.',
        params: idParams,
        responses: { 200: { description: 'The avatar', schema: avatarSchema } },
        errors: [notFound],
      },
      async ({ params, auth, deps }) => ({ body: toAvatarJson(await avatars.getAvatar(deps.db, accountOf(auth), params.id)) }),
    ),

    ...twinRoutes(
      {
        method: 'patch',
        path: '/marketing/avatars/{id}',
        operationId: 'updateMarketingAvatar',
        tags,
        permission: 'marketing.content:update',
        summary: 'Update a customer avatar.',
        description: docs.updateMarketingAvatarDescription,
        params: idParams,
        body: patchBody,
        responses: { 200: { description: 'The avatar', schema: avatarSchema } },
        errors: [notFound],
      },
      async ({ params, body, auth, deps }) => ({
        body: toAvatarJson(await avatars.updateAvatar(deps.db, accountOf(auth), params.id, body)),
      }),
    ),

    ...twinRoutes(
      {
        method: 'delete',
        path: '/marketing/avatars/{id}',
        operationId: 'deleteMarketingAvatar',
        tags,
        permission: 'marketing.content:update',
        summary: 'Delete a customer avatar.',
        description: onDelete,
        params: idParams,
        responses: { 204: { description: 'Deleted' } },
        errors: [notFound],
      },
      async ({ params, auth, deps }) => {
        await avatars.deleteAvatar(deps.db, accountOf(auth), params.id);
        return { status: 204 };
      },
    ),
  ];
}
