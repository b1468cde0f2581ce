import type { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import { idParams } from '../../http/ids';
import type { RouteDef } from '../../http/route';
import { twinRoutes } from '../twins';
import { createGridBody, gridSchema, MAX_QUOTE, MAX_RESULTS, MAX_TESTIMONIALS, patchGridBody } from './gridSchemas';
import * as grids from './gridService';
import type { Grid } from './gridService';
import { listQuery, stamp } from './listing';
import { listEnvelope, listEnvelopeSchema } from '../../http/pagination';

const tags = ['Marketing grounding'];

const toGridJson = (g: Grid): z.infer<typeof gridSchema> => ({
  id: g.id, name: g.name, description: g.description, results: g.results, testimonials: g.testimonials,
  created_at: stamp(g.created_at), updated_at: stamp(g.updated_at),
});

const notFound = { status: 404, code: 'grid_not_found', description: 'No grid with this id in your account (also for a malformed id or another account\'s).' };
const badRowId = { status: 400, code: 'invalid_reference', description: 'A row `id` in `results` or `testimonials` is not a row of this grid; `field` names it (e.g. `results.2.id`). Nothing is written.' };

export function gridRoutes(): RouteDef[] {
  return [
    ...twinRoutes({
      method: 'get', path: '/marketing/before-after-grids', operationId: 'listMarketingGrids', tags, permission: 'marketing.content:read',
      summary: 'List before/after grids with their rows, newest first.',
      description: 'A before/after grid holds measurable results (metric, before, after, unit) and testimonials (quote, attribution, consent); a content item names one in `before_after_grid_id`, and case studies take their numbers and quotes from it. Answers `{ data, total, page, limit }`, newest first, each grid with its rows; `search` matches part of the name, ignoring case. `page` defaults to 1, `limit` to 25 (maximum 100).',
      query: listQuery,
      responses: { 200: { description: 'A page of grids', schema: listEnvelopeSchema(gridSchema) } },
    }, async ({ query, auth, deps }) => {
      const { rows, total } = await grids.listGrids(deps.db, accountOf(auth), query);
      return { body: listEnvelope(rows.map(toGridJson), total, query) };
    }),

    ...twinRoutes({
      method: 'post', path: '/marketing/before-after-grids', operationId: 'createMarketingGrid', tags, permission: 'marketing.content:create', idempotent: true,
      summary: 'Create a before/after grid.',
      description: `\`name\` is required. \`results\` (at most ${MAX_RESULTS}) and \`testimonials\` (at most ${MAX_TESTIMONIALS}) are optional lists kept in the order sent; every row gets an \`id\`. \`before\` and \`after\` are numbers with at most 4 decimal places (more is 400 rather than silently rounded). A quote is at most ${MAX_QUOTE} characters; \`consent\` defaults to false. Honours \`Idempotency-Key\`.`,
      body: createGridBody,
      responses: { 201: { description: 'The grid with its rows', schema: gridSchema } },
    }, async ({ body, auth, deps }) => {
      const grid = await grids.createGrid(deps.db, accountOf(auth), body);
      return { status: 201, body: toGridJson(grid) };
    }),

    ...twinRoutes({
      method: 'get', path: '/marketing/before-after-grids/{id}', operationId: 'getMarketingGrid', tags, permission: 'marketing.content:read',
      summary: 'Get a before/after grid with its results and testimonials.',
      params: idParams,
      responses: { 200: { description: 'The grid with its rows', schema: gridSchema } },
      errors: [notFound],
    }, async ({ params, auth, deps }) => ({ body: toGridJson(await grids.getGrid(deps.db, accountOf(auth), params.id)) })),

    ...twinRoutes({
      method: 'patch', path: '/marketing/before-after-grids/{id}', operationId: 'updateMarketingGrid', tags, permission: 'marketing.content:update',
      summary: 'Update a before/after grid and its rows.',
      description: 'Partial: an absent field or list stays. `results` and `testimonials`, when sent, each replace that list in the order sent: a row sent with the `id` of one of this grid\'s rows keeps that id (citations in case studies stay valid), a row without `id` is new, and rows not sent are removed (`[]` empties the list). Every row is written as sent: an absent `unit` or `attribution` is null and an absent `consent` is false, also for a kept row. An `id` that is not one of this grid\'s rows is 400 `invalid_reference`; a repeated `id` is 400 `validation_failed`. Nothing is written on any error.',
      params: idParams, body: patchGridBody,
      responses: { 200: { description: 'The grid with its rows', schema: gridSchema } },
      errors: [notFound, badRowId],
    }, async ({ params, body, auth, deps }) => ({ body: toGridJson(await grids.updateGrid(deps.db, accountOf(auth), params.id, body)) })),

    ...twinRoutes({
      method: 'delete', path: '/marketing/before-after-grids/{id}', operationId: 'deleteMarketingGrid', tags, permission: 'marketing.content:update',
      summary: 'Delete a before/after grid and its rows.',
      description: 'Its results and testimonials go with it. Content items that name the grid keep existing with `before_after_grid_id` (and `before_after_grid`) null.',
      params: idParams,
      responses: { 204: { description: 'Deleted' } },
      errors: [notFound],
    }, async ({ params, auth, deps }) => {
      await grids.deleteGrid(deps.db, accountOf(auth), params.id);
      return { status: 204 };
    }),
  ];
}
