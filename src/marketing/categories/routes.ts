import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import { optionalText, requiredText } from '../../http/fields';
import { idParams } from '../../http/ids';
import type { RouteDef } from '../../http/route';
import { listQuery, stamp } from '../grounding/listing';
import { twinRoutes } from '../twins';
import * as categories from './service';
import type { CategoryRow } from './service';
import { MAX_SLUG, SLUG_PATTERN } from './slug';
import { listEnvelope, listEnvelopeSchema } from '../../http/pagination';
import * as docs from './docs';

const tags = ['Marketing categories'];

const slugRule = 'lowercase letters a-z and digits in words joined by single hyphens, e.g. "case-studies"';

/** An explicit slug, or null / "" to derive it from the name. */
const slugInput = z
  .string()
  .trim()
  .transform((v) => v || null)
  .pipe(
    z
      .string()
      .max(MAX_SLUG, { error: `must be at most ${MAX_SLUG} characters` })
      .regex(SLUG_PATTERN, { error: `must be ${slugRule}` })
      .nullable(),
  )
  .nullable();

const createBody = z.strictObject({
  name: requiredText(100).describe('1..100 characters; unique in the account ignoring case.'),
  slug: slugInput
    .optional()
    .describe(
      `${slugRule}, at most ${MAX_SLUG} characters; unique in the account. Absent, null or "": derived from the name (accents dropped, other characters become hyphens).`,
    ),
  description: optionalText(1000).optional().describe('Up to 1000 characters.'),
});

const patchBody = z.strictObject({
  name: requiredText(100).optional().describe('Renaming keeps the slug.'),
  slug: slugInput.optional().describe('A new slug; null or "" derives it again from the name (after this update).'),
  description: optionalText(1000).optional().describe('null or "" clears it.'),
});

const categorySchema = z
  .object({
    id: z.string().describe('Send as `category_id` on a content item.'),
    name: z.string(),
    slug: z.string(),
    description: z.string().nullable(),
    created_at: z.string().describe('ISO 8601'),
    updated_at: z.string().describe('ISO 8601'),
  })
  .meta({ id: 'Category' });

const toCategoryJson = (c: CategoryRow): z.infer<typeof categorySchema> => ({
  id: c.id,
  name: c.name,
  slug: c.slug,
  description: c.description,
  created_at: stamp(c.created_at),
  updated_at: stamp(c.updated_at),
});

const notFound = {
  status: 404,
  code: 'category_not_found',
  description: "No category with this id in your account (also for a malformed id or another account's).",
};
const nameTaken = { status: 409, code: 'category_name_taken', description: docs.categoryNameTakenError };
const slugTaken = { status: 409, code: 'category_slug_taken', description: docs.categorySlugTakenError };
const noSlug = {
  status: 400,
  code: 'validation_failed',
  description:
    'A slug is needed (`body.slug`) when the name has no letter or digit a-z, 0-9 to derive one from, or the slug breaks the slug rule.',
};

export function categoryRoutes(): RouteDef[] {
  return [
    ...twinRoutes(
      {
        method: 'get',
        path: '/marketing/categories',
        operationId: 'listMarketingCategories',
        tags,
        permission: 'marketing.content:read',
        summary: 'List content categories, by name.',
        description: docs.listMarketingCategoriesDescription,
        query: listQuery,
        responses: { 200: { description: 'A page of categories', schema: listEnvelopeSchema(categorySchema) } },
      },
      async ({ query, auth, deps }) => {
        const { rows, total } = await categories.listCategories(deps.db, accountOf(auth), query);
        return { body: listEnvelope(rows.map(toCategoryJson), total, query) };
      },
    ),

    ...twinRoutes(
      {
        method: 'post',
        path: '/marketing/categories',
        operationId: 'createMarketingCategory',
        tags,
        permission: 'marketing.content:create',
        idempotent: true,
        summary: 'Create a content category.',
        description: docs.createMarketingCategoryDescription,
        body: createBody,
        responses: { 201: { description: 'The category', schema: categorySchema } },
        errors: [noSlug, nameTaken, slugTaken],
      },
      async ({ body, auth, deps }) => {
        const row = await categories.createCategory(deps.db, accountOf(auth), body);
        return { status: 201, body: toCategoryJson(row) };
      },
    ),

    ...twinRoutes(
      {
        method: 'get',
        path: '/marketing/categories/{id}',
        operationId: 'getMarketingCategory',
        tags,
        permission: 'marketing.content:read',
        summary: 'Get a content category.',
        params: idParams,
        responses: { 200: { description: 'The category', schema: categorySchema } },
        errors: [notFound],
      },
      async ({ params, auth, deps }) => ({ body: toCategoryJson(await categories.getCategory(deps.db, accountOf(auth), params.id)) }),
    ),

    ...twinRoutes(
      {
        method: 'patch',
        path: '/marketing/categories/{id}',
        operationId: 'updateMarketingCategory',
        tags,
        permission: 'marketing.content:update',
        summary: 'Update a content category.',
        description: docs.updateMarketingCategoryDescription,
        params: idParams,
        body: patchBody,
        responses: { 200: { description: 'The category', schema: categorySchema } },
        errors: [notFound, noSlug, nameTaken, slugTaken],
      },
      async ({ params, body, auth, deps }) => ({
        body: toCategoryJson(await categories.updateCategory(deps.db, accountOf(auth), params.id, body)),
      }),
    ),

    ...twinRoutes(
      {
        method: 'delete',
        path: '/marketing/categories/{id}',
        operationId: 'deleteMarketingCategory',
        tags,
        permission: 'marketing.content:update',
        summary: 'Delete a content category.',
        description: 'Content items in the category keep existing with `category_id` null.',
        params: idParams,
        responses: { 204: { description: 'Deleted' } },
        errors: [notFound],
      },
      async ({ params, auth, deps }) => {
        await categories.deleteCategory(deps.db, accountOf(auth), params.id);
        return { status: 204 };
      },
    ),
  ];
}
