import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import { listEnvelopeSchema, pageQuery } from '../../http/pagination';
import type { RouteDef } from '../../http/route';
import { twinRoutes } from '../twins';
import { errorSpecs } from './errors';
import { idParams } from './schemas';
import { contentVersions, versionSchema } from './versions';
import * as docs from './docs';

const listResponse = listEnvelopeSchema(versionSchema);

export function contentVersionRoutes(): RouteDef[] {
  return twinRoutes(
    {
      method: 'get',
      path: '/marketing/content/{id}/versions',
      operationId: 'listMarketingContentVersions',
      tags: ['Marketing content'],
      permission: 'marketing.content:read',
      summary: 'List the versions of a content item, newest first.',
      description: docs.listMarketingContentVersionsDescription,
      params: idParams,
      query: z.strictObject(pageQuery),
      responses: { 200: { description: 'A page of versions', schema: listResponse } },
      errors: [errorSpecs.notFound],
    },
    async ({ params, query, auth, deps }) => ({
      body: await contentVersions(deps.db, accountOf(auth), params.id, query),
    }),
  );
}
