import { accountOf } from '../../auth/authenticate';
import { idParams } from '../../http/ids';
import type { RouteDef } from '../../http/route';
import { errorSpecs } from '../content/errors';
import { twinRoutes } from '../twins';
import { ImagesPreviewSchema, imagesPreview } from './preview';
import * as docs from './previewDocs';

/** `GET /api/marketing/content/{id}/images` and its agent twin. */
export function imagesPreviewRoutes(): RouteDef[] {
  return twinRoutes(
    {
      method: 'get',
      path: '/marketing/content/{id}/images',
      operationId: 'previewMarketingContentImages',
      tags: ['Marketing images'],
      permission: 'marketing.content:read',
      summary: "Preview a content item's images run: its H2s, what would be illustrated, and the allowance left.",
      description: docs.PREVIEW,
      params: idParams,
      responses: { 200: { description: 'The preview', schema: ImagesPreviewSchema } },
      errors: [errorSpecs.notFound],
    },
    async ({ params, auth, deps }) => ({ body: await imagesPreview(deps.db, accountOf(auth), params.id, new Date()) }),
  );
}
