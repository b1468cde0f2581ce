import type { Context } from 'koa';
import { z } from 'zod';
import type { AppDeps } from '../../deps';
import { mediaPath } from './files';
import type { MediaAssetRow } from './store';

export const mediaAssetSchema = z
  .object({
    id: z.string(),
    url: z
      .string()
      .describe(
        'Public, unguessable URL of the file (`/media/<43-char token>/<filename>`); anyone holding it can fetch the image, so embed it in pages freely and share it like a secret link.',
      ),
    filename: z.string().describe('URL-safe file name; its extension follows the decoded format.'),
    mime_type: z
      .enum(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif'])
      .describe("Read from the image itself, never from the upload's declared type."),
    width: z.number().int().describe('Pixels, as displayed (after EXIF orientation).'),
    height: z.number().int(),
    byte_size: z.number().int(),
    sha256: z.string().describe("Hex SHA-256 of the stored bytes; also the file's ETag."),
    tags: z
      .array(z.string())
      .describe('`content_image` and `content:<item id>` on uploads to an item; `brand_reference` marks approved brand imagery.'),
    alt_text: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'MediaAsset' });

export type MediaAssetJson = z.infer<typeof mediaAssetSchema>;

/**
 * Where media URLs point: PUBLIC_APP_URL when configured, else the scheme and host the request came to
 * (X-Forwarded-Proto/Host honoured: the app runs with proxy trust).
 */
export function publicBaseUrl(deps: AppDeps, ctx: Context): string {
  const base = deps.config.PUBLIC_APP_URL || (ctx.host ? `${ctx.protocol}://${ctx.host}` : '');
  return base.replace(/\/+$/, '');
}

export function toAssetJson(row: MediaAssetRow, baseUrl: string): MediaAssetJson {
  return {
    id: row.id,
    url: `${baseUrl}${mediaPath(row.public_token, row.filename)}`,
    filename: row.filename,
    mime_type: row.mime_type as MediaAssetJson['mime_type'],
    width: row.width,
    height: row.height,
    byte_size: row.byte_size,
    sha256: row.sha256,
    tags: row.tags,
    alt_text: row.alt_text,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
