import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import { optionalText, requiredText } from '../../http/fields';
import { refId } from '../../http/ids';
import type { RouteDef } from '../../http/route';
import { projectNotFoundError } from '../../projects/docs';
import { publicBaseUrl } from '../media/representation';
import { twinRoutes } from '../twins';
import * as brand from './service';
import type { BrandGuideRow } from './service';
import * as docs from './docs';

const tags = ['Marketing brand'];

const MAX_COLORS = 12;
const MAX_AVOID = 30;

const color = z.strictObject({
  name: optionalText(60).optional().describe('What the colour is called (at most 60 characters), e.g. `Navy`.'),
  hex: z
    .string()
    .trim()
    .regex(/^#[0-9a-fA-F]{6}$/, { error: 'must be #rrggbb' })
    .transform((v) => v.toLowerCase())
    .describe('`#rrggbb`; answered lowercase.'),
});

const guideBody = z.strictObject({
  voice: optionalText(2000).optional().describe('How the brand speaks (at most 2,000 characters); null, "" or absent clears it.'),
  visual_style: optionalText(2000).optional().describe('How its images look (at most 2,000 characters); null, "" or absent clears it.'),
  colors: z
    .array(color)
    .max(MAX_COLORS, { error: `at most ${MAX_COLORS} colours` })
    .optional()
    .describe('At most 12; absent clears them.'),
  avoid: z
    .array(requiredText(200))
    .max(MAX_AVOID, { error: `at most ${MAX_AVOID} entries` })
    .transform((list) => [...new Set(list)])
    .optional()
    .describe('Things images must not show, at most 30 of 1–200 characters; duplicates dropped; absent clears them.'),
  primary_logo_asset_id: refId()
    .nullable()
    .optional()
    .describe('A media asset of the account (400 `invalid_reference` otherwise); null or absent clears it.'),
});

const guideSchema = z
  .object({
    project_id: z.string().nullable().describe("null for the account's guide."),
    voice: z.string().nullable(),
    visual_style: z.string().nullable(),
    colors: z.array(z.object({ name: z.string().nullable(), hex: z.string() })),
    avoid: z.array(z.string()),
    primary_logo_asset_id: z.string().nullable(),
    updated_at: z.string().nullable().describe('null while the guide was never saved.'),
  })
  .meta({ id: 'BrandGuide' });

const profileSchema = z
  .object({
    project_id: z.string().nullable().describe('The project asked for, or null for the account guide alone.'),
    prompt_block: z.string().describe('Plain sentences, no markdown; "" when the guide sets no style, voice or colour.'),
    avoid_list: z.array(z.string()),
    reference_images: z.array(
      z.object({
        id: z.string().describe('`logo_primary` for the logo, else the media asset id.'),
        url: z.string(),
        role: z.enum(['logo', 'brand']),
        alt: z.string().optional(),
      }),
    ),
  })
  .meta({ id: 'BrandImageProfile' });

const projectParams = z.strictObject({
  projectId: z.string().describe("Website project id (uuid). A malformed or unknown id, or another account's, answers 404."),
});

const profileQuery = z.strictObject({
  project_id: z
    .preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.string().trim().optional())
    .describe("A website project (uuid) of the account: its own guide wins, field by field. Absent or empty: the account's guide."),
});

const invalidLogo = {
  status: 400,
  code: 'invalid_reference',
  description: '`primary_logo_asset_id` is not a media asset of your account (`field` names it); nothing was written.',
};

function toGuideJson(row: BrandGuideRow | undefined, projectId: string | null): z.infer<typeof guideSchema> {
  return {
    project_id: projectId,
    voice: row?.voice ?? null,
    visual_style: row?.visual_style ?? null,
    colors: row?.colors ?? [],
    avoid: row?.avoid ?? [],
    primary_logo_asset_id: row?.primary_logo_asset_id ?? null,
    updated_at: row ? row.updated_at.toISOString() : null,
  };
}

const fieldsOf = (body: z.output<typeof guideBody>): brand.BrandGuideFields => ({
  voice: body.voice ?? null,
  visual_style: body.visual_style ?? null,
  colors: (body.colors ?? []).map((c) => ({ name: c.name ?? null, hex: c.hex })),
  avoid: body.avoid ?? [],
  primary_logo_asset_id: body.primary_logo_asset_id ?? null,
});

const guideResponse = { 200: { description: 'The guide', schema: guideSchema } };

/** Brand guides (the account's and each project's own) and the brand image profile image prompts read. */
export function brandRoutes(): RouteDef[] {
  return [
    ...twinRoutes(
      {
        method: 'get',
        path: '/marketing/brand',
        operationId: 'getBrandGuide',
        tags,
        permission: 'marketing.content:read',
        summary: "Read the account's brand guide.",
        description: docs.getAccountGuide,
        responses: guideResponse,
      },
      async ({ auth, deps }) => ({ body: toGuideJson(await brand.getGuide(deps.db, accountOf(auth), null), null) }),
    ),

    ...twinRoutes(
      {
        method: 'put',
        path: '/marketing/brand',
        operationId: 'putBrandGuide',
        tags,
        permission: 'marketing.content:update',
        summary: "Replace the account's brand guide.",
        description: docs.putGuide("the account's guide"),
        body: guideBody,
        responses: guideResponse,
        errors: [invalidLogo],
      },
      async ({ body, auth, deps }) => ({ body: toGuideJson(await brand.putGuide(deps.db, accountOf(auth), null, fieldsOf(body)), null) }),
    ),

    ...twinRoutes(
      {
        method: 'get',
        path: '/marketing/projects/{projectId}/brand',
        operationId: 'getProjectBrandGuide',
        tags,
        permission: 'marketing.content:read',
        summary: "Read a website project's own brand guide.",
        description: docs.getProjectGuide,
        params: projectParams,
        responses: guideResponse,
        errors: [projectNotFoundError],
      },
      async ({ params, auth, deps }) => ({
        body: toGuideJson(await brand.getGuide(deps.db, accountOf(auth), params.projectId), params.projectId),
      }),
    ),

    ...twinRoutes(
      {
        method: 'put',
        path: '/marketing/projects/{projectId}/brand',
        operationId: 'putProjectBrandGuide',
        tags,
        permission: 'marketing.content:update',
        summary: "Replace a website project's own brand guide.",
        description: docs.putGuide("the project's own guide (its set fields win over the account's in the image profile)"),
        params: projectParams,
        body: guideBody,
        responses: guideResponse,
        errors: [invalidLogo, projectNotFoundError],
      },
      async ({ params, body, auth, deps }) => ({
        body: toGuideJson(await brand.putGuide(deps.db, accountOf(auth), params.projectId, fieldsOf(body)), params.projectId),
      }),
    ),

    ...twinRoutes(
      {
        method: 'get',
        path: '/marketing/brand/image-profile',
        operationId: 'getBrandImageProfile',
        tags,
        permission: 'marketing.content:read',
        summary: 'The brand image profile: prompt block, avoid list and reference images.',
        description: docs.imageProfile,
        query: profileQuery,
        responses: { 200: { description: 'The profile', schema: profileSchema } },
        errors: [projectNotFoundError],
      },
      async ({ query, auth, deps, ctx }) => ({
        body: await brand.imageProfile(deps.db, accountOf(auth), query.project_id, publicBaseUrl(deps, ctx)),
      }),
    ),
  ];
}
