import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import { optionalText } from '../../http/fields';
import { refId } from '../../http/ids';
import { listEnvelope, listEnvelopeSchema, pageQuery } from '../../http/pagination';
import { route, type RouteDef } from '../../http/route';
import { twinRoutes } from '../twins';
import { mediaAssetSchema, publicBaseUrl, toAssetJson } from './representation';
import * as media from './service';
import { MAX_TAGS, tagListSchema, tagSchema } from './tags';
import * as docs from './docs';

const tags = ['Marketing media'];

const assetParams = z.strictObject({
  assetId: z.string().describe('Media asset id (uuid). A malformed or unknown id, or one of another account, answers 404.'),
});

const listQuery = z.strictObject({
  tag: tagSchema.optional().describe('Only assets carrying this exact tag (e.g. `brand_reference`, `content:<item id>`).'),
  content_id: refId().optional().describe('Only assets attached to this content item now (an item of another account matches nothing).'),
  ...pageQuery,
});

const patchBody = z
  .strictObject({
    tags: tagListSchema
      .optional()
      .describe(
        `Tags to add (kept when already present). Each is trimmed, 1..100 characters; at most ${MAX_TAGS} per request and per asset.`,
      ),
    remove_tags: tagListSchema.optional().describe('Tags to remove; a tag the asset does not carry is ignored.'),
    alt_text: optionalText(1000).optional().describe('Alternative text (at most 1,000 characters); null or "" clears it.'),
  })
  .refine((b) => !(b.tags ?? []).some((t) => (b.remove_tags ?? []).includes(t)), {
    error: 'a tag cannot be added and removed in the same request',
    path: ['remove_tags'],
  });

const assetNotFound = {
  status: 404,
  code: 'media_asset_not_found',
  description: 'No media asset with this id in your account (also for a malformed id).',
};

/** The account's media library (list, one asset, tag and alt-text changes) and the public file URL. */
export function mediaRoutes(): RouteDef[] {
  return [
    ...twinRoutes(
      {
        method: 'get',
        path: '/marketing/media',
        operationId: 'listMarketingMedia',
        tags,
        permission: 'marketing.content:read',
        summary: 'List the media library, newest first.',
        description: docs.listMarketingMediaDescription,
        query: listQuery,
        responses: { 200: { description: 'A page of assets', schema: listEnvelopeSchema(mediaAssetSchema) } },
      },
      async ({ query, auth, deps, ctx }) => {
        const { page, limit, tag, content_id } = query;
        const { rows, total } = await media.listMedia(deps.db, accountOf(auth), { tag, contentId: content_id }, { page, limit });
        const base = publicBaseUrl(deps, ctx);
        return {
          body: listEnvelope(
            rows.map((r) => toAssetJson(r, base)),
            total,
            { page, limit },
          ),
        };
      },
    ),

    ...twinRoutes(
      {
        method: 'get',
        path: '/marketing/media/{assetId}',
        operationId: 'getMarketingMedia',
        tags,
        permission: 'marketing.content:read',
        summary: 'Get one media asset.',
        params: assetParams,
        responses: { 200: { description: 'The asset', schema: mediaAssetSchema } },
        errors: [assetNotFound],
      },
      async ({ params, auth, deps, ctx }) => {
        const asset = await media.getMedia(deps.db, accountOf(auth), params.assetId);
        return { body: toAssetJson(asset, publicBaseUrl(deps, ctx)) };
      },
    ),

    ...twinRoutes(
      {
        method: 'patch',
        path: '/marketing/media/{assetId}',
        operationId: 'updateMarketingMedia',
        tags,
        permission: 'marketing.content:update',
        summary: docs.updateMarketingMediaSummary,
        description: docs.updateMarketingMediaDescription,
        params: assetParams,
        body: patchBody,
        responses: { 200: { description: 'The asset after the change', schema: mediaAssetSchema } },
        errors: [assetNotFound],
      },
      async ({ params, body, auth, deps, ctx }) => {
        const asset = await media.updateMedia(deps.db, accountOf(auth), params.assetId, {
          tags: body.tags,
          removeTags: body.remove_tags,
          altText: body.alt_text,
        });
        return { body: toAssetJson(asset, publicBaseUrl(deps, ctx)) };
      },
    ),

    route(
      {
        method: 'get',
        path: '/media/{token}/{filename}',
        operationId: 'getMediaFile',
        tags,
        auth: { kind: 'none' },
        summary: 'Fetch a media file by its public URL.',
        description: docs.getMediaFileDescription,
        params: z.strictObject({ token: z.string(), filename: z.string() }),
        responses: {
          200: {
            description: 'The image bytes',
            contentType: 'image/*',
            headers: {
              'Content-Type': 'The decoded image type',
              ETag: '"<sha256>"',
              'Cache-Control': 'public, max-age=31536000, immutable',
            },
          },
          304: { description: 'If-None-Match matched the ETag' },
        },
        errors: [{ status: 404, code: 'media_not_found', description: 'No file at this URL.' }],
      },
      async ({ params, deps, ctx }) => {
        const file = await media.publicFile(deps.db, params.token, params.filename);
        const etag = `"${file.sha256}"`;
        const headers = {
          'Content-Type': file.mime_type,
          'Cache-Control': 'public, max-age=31536000, immutable',
          ETag: etag,
          'X-Content-Type-Options': 'nosniff',
          'Content-Security-Policy': "default-src 'none'; sandbox",
          'Cross-Origin-Resource-Policy': 'cross-origin',
          'Content-Disposition': `inline; filename="${file.filename}"`,
        };
        const ifNoneMatch = ctx
          .get('if-none-match')
          .split(',')
          .map((t) => t.trim().replace(/^W\//, ''));
        if (ifNoneMatch.includes(etag) || ifNoneMatch.includes('*')) return { status: 304, headers };
        return { status: 200, body: file.data, headers };
      },
    ),
  ];
}
