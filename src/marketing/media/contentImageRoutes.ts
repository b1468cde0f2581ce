import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import { optionalText } from '../../http/fields';
import { idParams, refId } from '../../http/ids';
import type { RouteDef } from '../../http/route';
import { validatePart } from '../../http/validate';
import { getContent } from '../content/service';
import { twinRoutes } from '../twins';
import { fieldError, MAX_IMAGE_BYTES } from './errors';
import { parseMultipart } from './multipart';
import { mediaAssetSchema, publicBaseUrl, toAssetJson } from './representation';
import * as media from './service';
import * as docs from './docs';

const tags = ['Marketing media'];

/** Room for the multipart envelope (boundaries, part headers, the two text fields) around a 25 MB file. */
const ENVELOPE_BYTES = 64 * 1024;

const uploadFields = z.strictObject({
  alt_text: optionalText(1000).optional(),
  placement: optionalText(255).optional(),
});

const deleteBody = z.strictObject({
  asset_id: refId().describe('The media asset to detach from the item.'),
});

const contentNotFound = {
  status: 404,
  code: 'content_not_found',
  description: 'No content item with this id in your account (also for a malformed id).',
};

/** Upload an image into the media library attached to a content item, and detach one. */
export function contentImageRoutes(): RouteDef[] {
  return [
    ...twinRoutes(
      {
        method: 'post',
        path: '/marketing/content/{id}/upload-image',
        operationId: 'uploadMarketingContentImage',
        tags,
        permission: 'marketing.content:update',
        rawBody: true,
        requestContentType: 'multipart/form-data',
        maxBodyBytes: MAX_IMAGE_BYTES + ENVELOPE_BYTES,
        summary: 'Upload an image into the media library and attach it to the item.',
        description: docs.uploadMarketingContentImageDescription,
        params: idParams,
        responses: {
          201: {
            description: 'Stored and attached',
            schema: z
              .object({ asset: mediaAssetSchema, content_id: z.string(), placement: z.string().nullable() })
              .meta({ id: 'ContentImage' }),
          },
        },
        errors: [
          contentNotFound,
          {
            status: 400,
            code: 'invalid_image',
            description: 'The file has an image signature but does not decode (truncated or corrupt).',
          },
          { status: 400, code: 'image_too_large', description: docs.imageTooLargeError },
          { status: 400, code: 'invalid_multipart', description: docs.invalidMultipartError },
          { status: 413, code: 'file_too_large', description: 'The file part is over 25 MB.' },
          { status: 413, code: 'payload_too_large', description: 'The whole request is over 25 MB plus 64 KB.' },
          { status: 415, code: 'unsupported_media_type', description: 'The request is not multipart/form-data.' },
          { status: 415, code: 'unsupported_image', description: 'The file is not a JPEG, PNG, WebP, GIF or AVIF image (SVG included).' },
        ],
      },
      async ({ params, rawBody, auth, deps, ctx }) => {
        const accountId = accountOf(auth);
        await getContent(deps.db, accountId, params.id); // an unknown item is 404 before any parsing or decoding
        const form = await parseMultipart(rawBody, ctx.get('content-type'), {
          fileField: 'file',
          maxFileBytes: MAX_IMAGE_BYTES,
          maxFields: 10,
          maxFieldBytes: 4096,
        });
        if (!form.file) throw fieldError('body.file', 'required: send the image as the file part named file');
        if (form.file.bytes.length === 0) throw fieldError('body.file', 'the file is empty');
        const fields = validatePart('body', uploadFields, form.fields);
        const placement = fields.placement ?? null;
        const asset = await media.uploadContentImage(deps.db, accountId, params.id, {
          bytes: form.file.bytes,
          filename: form.file.filename,
          altText: fields.alt_text ?? null,
          placement,
        });
        return { status: 201, body: { asset: toAssetJson(asset, publicBaseUrl(deps, ctx)), content_id: params.id, placement } };
      },
    ),

    ...twinRoutes(
      {
        method: 'post',
        path: '/marketing/content/{id}/delete-image',
        operationId: 'deleteMarketingContentImage',
        tags,
        permission: 'marketing.content:update',
        summary: 'Detach an image from the item.',
        description: docs.deleteMarketingContentImageDescription,
        params: idParams,
        body: deleteBody,
        responses: {
          200: {
            description: 'Detached',
            schema: z
              .object({ content_id: z.string(), asset_id: z.string(), detached: z.literal(true) })
              .meta({ id: 'DetachedContentImage' }),
          },
        },
        errors: [
          contentNotFound,
          { status: 404, code: 'image_not_attached', description: 'That asset is not attached to this item (or is not in your account).' },
        ],
      },
      async ({ params, body, auth, deps }) => {
        await media.detachContentImage(deps.db, accountOf(auth), params.id, body.asset_id);
        return { body: { content_id: params.id, asset_id: body.asset_id, detached: true as const } };
      },
    ),
  ];
}
