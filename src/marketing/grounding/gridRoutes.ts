import type { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import { idParams } from '../../http/ids';
import type { RouteDef } from '../../http/route';
import { twinRoutes } from '../twins';
import { createGridBody, gridSchema, patchGridBody } from './gridSchemas';
import * as grids from './gridService';
import type { Grid } from './gridService';
import { listQuery, stamp } from './listing';
import { listEnvelope, listEnvelopeSchema } from '../../http/pagination';
import * as docs from './docs';

const tags = ['Marketing grounding'];

const toGridJson = (g: Grid): z.infer<typeof gridSchema> => ({
  id: g.id,
  name: g.name,
  description: g.description,
  results: g.results,
  testimonials: g.testimonials,
  created_at: stamp(g.created_at),
  updated_at: stamp(g.updated_at),
});

const notFound = {
  status: 404,
  code: 'grid_not_found',
  description: "No grid with this id in your account (also for a malformed id or another account's).",
};
const badRowId = { status: 400, code: 'invalid_reference', description: docs.invalidReferenceError };

export function gridRoutes(): RouteDef[] {
  return [
    ...twinRoutes(
      {
        method: 'get',
        path: '/marketing/before-after-grids',
        operationId: 'listMarketingGrids',
        tags,
        permission: 'marketing.content:read',
        summary: 'List before/after grids with their rows, newest first.',
        description: docs.listMarketingGridsDescription,
        query: listQuery,
        responses: { 200: { description: 'A page of grids', schema: listEnvelopeSchema(gridSchema) } },
      },
      async ({ query, auth, deps }) => {
        const { rows, total } = await grids.listGrids(deps.db, accountOf(auth), query);
        return { body: listEnvelope(rows.map(toGridJson), total, query) };
      },
    ),

    ...twinRoutes(
      {
        method: 'post',
        path: '/marketing/before-after-grids',
        operationId: 'createMarketingGrid',
        tags,
        permission: 'marketing.content:create',
        idempotent: true,
        summary: 'Create a before/after grid.',
        description: docs.createMarketingGridDescription,
        body: createGridBody,
        responses: { 201: { description: 'The grid with its rows', schema: gridSchema } },
      },
      async ({ body, auth, deps }) => {
        const grid = await grids.createGrid(deps.db, accountOf(auth), body);
        return { status: 201, body: toGridJson(grid) };
      },
    ),

    ...twinRoutes(
      {
        method: 'get',
        path: '/marketing/before-after-grids/{id}',
        operationId: 'getMarketingGrid',
        tags,
        permission: 'marketing.content:read',
        summary: 'Get a before/after grid with its results and testimonials.',
        params: idParams,
        responses: { 200: { description: 'The grid with its rows', schema: gridSchema } },
        errors: [notFound],
      },
      async ({ params, auth, deps }) => ({ body: toGridJson(await grids.getGrid(deps.db, accountOf(auth), params.id)) }),
    ),

    ...twinRoutes(
      {
        method: 'patch',
        path: '/marketing/before-after-grids/{id}',
        operationId: 'updateMarketingGrid',
        tags,
        permission: 'marketing.content:update',
        summary: 'Update a before/after grid and its rows.',
        description: docs.updateMarketingGridDescription,
        params: idParams,
        body: patchGridBody,
        responses: { 200: { description: 'The grid with its rows', schema: gridSchema } },
        errors: [notFound, badRowId],
      },
      async ({ params, body, auth, deps }) => ({ body: toGridJson(await grids.updateGrid(deps.db, accountOf(auth), params.id, body)) }),
    ),

    ...twinRoutes(
      {
        method: 'delete',
        path: '/marketing/before-after-grids/{id}',
        operationId: 'deleteMarketingGrid',
        tags,
        permission: 'marketing.content:update',
        summary: 'Delete a before/after grid and its rows.',
        description: docs.deleteMarketingGridDescription,
        params: idParams,
        responses: { 204: { description: 'Deleted' } },
        errors: [notFound],
      },
      async ({ params, auth, deps }) => {
        await grids.deleteGrid(deps.db, accountOf(auth), params.id);
        return { status: 204 };
      },
    ),
  ];
}
