import { z } from 'zod';
import { accountOf } from '../auth/authenticate';
import { route, type RouteDef } from '../http/route';
import * as dealsService from './dealService';
import type { DealView } from './dealStore';
import { iso, optionalText, requiredText } from '../http/fields';
import { idParams, refId } from '../http/ids';
import { listEnvelope, listEnvelopeSchema, pageQuery } from '../http/pagination';
import * as docs from './docs';

const tags = ['CRM'];
const auth = { kind: 'session' } as const;

const status = z.enum(['open', 'won', 'lost']);

const dealFields = {
  title: requiredText(200),
  contactId: refId().nullable().optional().describe('A contact of the account, or null.'),
  amount: z
    .int({ error: 'must be a whole number of minor units' })
    .min(0, { error: 'must be 0 or more' })
    .describe('Value in minor units of `currency` (cents for USD), an integer ≥ 0.'),
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/, { error: 'must be a 3-letter ISO 4217 code' })
    .transform((c) => c.toUpperCase())
    .describe('ISO 4217 code; accepted in any case, stored and returned uppercase.'),
  stageId: refId().describe("A stage of the account's pipeline (see GET /api/crm/pipeline/stages)."),
  sourceType: z
    .string()
    .regex(/^[a-z][a-z0-9_.:-]{0,63}$/, { error: 'must be a lowercase identifier of up to 64 characters, e.g. content_item' })
    .nullable()
    .optional()
    .describe('Attribution: the kind of marketing asset the deal came from, e.g. `content_item`, `campaign`.'),
  sourceId: optionalText(255).optional().describe('Attribution: the id of that asset.'),
  sourceLabel: optionalText(255).optional().describe('Attribution: a readable name of that asset.'),
};

const createBody = z.strictObject({
  ...dealFields,
  amount: dealFields.amount.default(0),
  stageId: dealFields.stageId.optional().describe('Defaults to the first open stage of the default pipeline.'),
});

const patchBody = z.strictObject({
  ...dealFields,
  title: dealFields.title.optional(),
  amount: dealFields.amount.optional(),
  currency: dealFields.currency.optional(),
  stageId: dealFields.stageId.optional().describe('Moving into a `won` stage sets `wonAt`; into any other stage clears it.'),
});

const listQuery = z.strictObject({
  contactId: refId().optional().describe('Only deals of this contact.'),
  status: status.optional().describe("The kind of the deal's stage: `open`, `won` or `lost`."),
  ...pageQuery,
});

const dealSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    contactId: z.string().nullable(),
    amount: z.number().int(),
    currency: z.string(),
    pipelineId: z.string(),
    stageId: z.string(),
    status: status.describe('The kind of its stage.'),
    wonAt: z.string().nullable().describe('When the deal entered a won stage; null unless won.'),
    sourceType: z.string().nullable(),
    sourceId: z.string().nullable(),
    sourceLabel: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Deal' });

const toDealJson = (d: DealView): z.infer<typeof dealSchema> => ({
  id: d.id,
  title: d.title,
  contactId: d.contact_id,
  amount: Number(d.amount),
  currency: d.currency,
  pipelineId: d.pipeline_id,
  stageId: d.stage_id,
  status: d.status,
  wonAt: iso(d.won_at),
  sourceType: d.source_type,
  sourceId: d.source_id,
  sourceLabel: d.source_label,
  createdAt: d.created_at.toISOString(),
  updatedAt: d.updated_at.toISOString(),
});

const invalidRef = { status: 400, code: 'invalid_reference', description: docs.invalidReferenceError2 };
const notFound = { status: 404, code: 'deal_not_found', description: 'No deal with this id in your account (also for a malformed id).' };

export function dealRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'get',
        path: '/api/crm/deals',
        operationId: 'listCrmDeals',
        tags,
        auth,
        summary: 'List deals, newest first.',
        description: docs.listCrmDealsDescription,
        query: listQuery,
        responses: { 200: { description: 'A page of deals', schema: listEnvelopeSchema(dealSchema) } },
      },
      async ({ query, auth, deps }) => {
        const { page, limit, ...filter } = query;
        const { rows, total } = await dealsService.listDeals(deps.db, accountOf(auth), filter, { page, limit });
        return { body: listEnvelope(rows.map(toDealJson), total, { page, limit }) };
      },
    ),

    route(
      {
        method: 'post',
        path: '/api/crm/deals',
        operationId: 'createCrmDeal',
        tags,
        auth,
        idempotent: true,
        summary: 'Create a deal.',
        description: docs.createCrmDealDescription,
        body: createBody,
        responses: { 201: { description: 'The deal', schema: dealSchema } },
        errors: [invalidRef],
      },
      async ({ body, auth, deps }) => {
        const deal = await dealsService.createDeal(deps.db, accountOf(auth), body);
        return { status: 201, body: toDealJson(deal) };
      },
    ),

    route(
      {
        method: 'patch',
        path: '/api/crm/deals/{id}',
        operationId: 'updateCrmDeal',
        tags,
        auth,
        summary: docs.updateCrmDealSummary,
        description: docs.updateCrmDealDescription,
        params: idParams,
        body: patchBody,
        responses: { 200: { description: 'The deal', schema: dealSchema } },
        errors: [notFound, invalidRef],
      },
      async ({ params, body, auth, deps }) => {
        const deal = await dealsService.updateDeal(deps.db, accountOf(auth), params.id, body);
        return { body: toDealJson(deal) };
      },
    ),
  ];
}
