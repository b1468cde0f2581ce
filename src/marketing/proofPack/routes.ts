import { accountOf } from '../../auth/authenticate';
import { idParams } from '../../http/ids';
import type { RouteDef } from '../../http/route';
import { errorSpecs } from '../content/errors';
import { twinRoutes } from '../twins';
import * as docs from './docs';
import { packErrorSpecs } from './errors';
import { DEFAULT_PACK_LIMIT, packQuery, ProofPackSchema, storeBody, StoredPackSchema } from './schemas';
import { proofPack } from './service';
import { storeProofPack } from './artifact';

const tags = ['Marketing proof pack'];

/** `GET /api/marketing/content/proof-pack`, `POST /api/marketing/content/{id}/proof-pack` and their agent twins. */
export function proofPackRoutes(): RouteDef[] {
  return [
    ...twinRoutes(
      {
        method: 'get',
        path: '/marketing/content/proof-pack',
        operationId: 'getMarketingProofPack',
        tags,
        permission: 'marketing.content:read',
        summary: 'Proof for a writer: quotable testimonials, results and reviews; paraphrased internal voice of customer.',
        description: docs.GET_PACK,
        query: packQuery,
        responses: { 200: { description: 'The proof pack', schema: ProofPackSchema } },
        errors: [errorSpecs.notFound, packErrorSpecs.invalidAvatar],
      },
      async ({ query, auth, deps }) => ({
        body: await proofPack(deps, accountOf(auth), {
          contentId: query.content_id,
          avatarId: query.avatar_id,
          journeyStage: query.journey_stage,
          kinds: query.kinds,
          q: query.q,
          limit: query.limit,
        }),
      }),
    ),

    ...twinRoutes(
      {
        method: 'post',
        path: '/marketing/content/{id}/proof-pack',
        operationId: 'storeMarketingProofPack',
        tags,
        permission: 'marketing.content:update',
        summary: "Build a content item's proof pack and store it as its proof_pack knowledge artifact.",
        description: docs.STORE_PACK,
        params: idParams,
        body: storeBody,
        responses: { 201: { description: 'The stored pack', schema: StoredPackSchema } },
        errors: [errorSpecs.notFound, packErrorSpecs.invalidAvatar],
      },
      async ({ params, body, auth, deps }) => ({
        status: 201,
        body: await storeProofPack(deps, accountOf(auth), params.id, {
          avatarId: body.avatar_id ?? undefined,
          journeyStage: body.journey_stage ?? undefined,
          kinds: body.kinds,
          q: body.q ?? undefined,
          limit: body.limit ?? DEFAULT_PACK_LIMIT,
        }),
      }),
    ),
  ];
}
