import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import { optionalText, requiredText } from '../../http/fields';
import { idParams } from '../../http/ids';
import type { RouteDef } from '../../http/route';
import { twinRoutes } from '../twins';
import * as journeys from './journeyService';
import { MAX_STAGES } from './journeyService';
import type { JourneyRow } from './journeyService';
import { listQuery, stamp } from './listing';
import { listEnvelope, listEnvelopeSchema } from '../../http/pagination';
import * as docs from './docs';

const tags = ['Marketing grounding'];

const stageInput = z
  .strictObject({
    name: requiredText(255).describe('1..255 characters; content names the stage in `journey_stage` with this spelling.'),
    description: optionalText(2000).optional().describe('Up to 2000 characters; "" or null means none.'),
  })
  .transform((s) => ({ name: s.name, description: s.description ?? null }));

/** Ordered stages, 1..20, names unique within the journey ignoring case (content matches `journey_stage` that way). */
const stagesInput = z
  .array(stageInput)
  .min(1, { error: 'a journey has at least 1 stage' })
  .max(MAX_STAGES, { error: `a journey has at most ${MAX_STAGES} stages` })
  .superRefine((stages, ctx) => {
    const seen = new Map<string, number>();
    stages.forEach((stage, i) => {
      const key = stage.name.toLowerCase();
      const first = seen.get(key);
      if (first === undefined) seen.set(key, i);
      else
        ctx.addIssue({
          code: 'custom',
          path: [i, 'name'],
          message: `repeats the name of stage ${first} ("${stages[first].name}"); stage names are unique ignoring case`,
        });
    });
  })
  .describe(
    `The stages in journey order (e.g. Awareness, Consideration, Decision): 1..${MAX_STAGES}, names unique ignoring case. The order you send is the order you get back.`,
  );

const createBody = z.strictObject({
  name: requiredText(255).describe('1..255 characters.'),
  description: optionalText(5000).optional().describe('Up to 5000 characters.'),
  stages: stagesInput,
});

const patchBody = z.strictObject({
  name: requiredText(255).optional(),
  description: optionalText(5000).optional().describe('null or "" clears it.'),
  stages: stagesInput.optional().describe('Replaces the whole list; its order becomes the journey order.'),
});

const journeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    stages: z.array(z.object({ name: z.string(), description: z.string().nullable() })).describe('In journey order.'),
    created_at: z.string().describe('ISO 8601'),
    updated_at: z.string().describe('ISO 8601'),
  })
  .meta({ id: 'Journey' });

const toJourneyJson = (j: JourneyRow): z.infer<typeof journeySchema> => ({
  id: j.id,
  name: j.name,
  description: j.description,
  stages: j.stages.map((s) => ({ name: s.name, description: s.description ?? null })),
  created_at: stamp(j.created_at),
  updated_at: stamp(j.updated_at),
});

const notFound = {
  status: 404,
  code: 'journey_not_found',
  description: "No journey with this id in your account (also for a malformed id or another account's).",
};

export function journeyRoutes(): RouteDef[] {
  return [
    ...twinRoutes(
      {
        method: 'get',
        path: '/marketing/journeys',
        operationId: 'listMarketingJourneys',
        tags,
        permission: 'marketing.content:read',
        summary: 'List customer journey maps, newest first.',
        description: docs.listMarketingJourneysDescription,
        query: listQuery,
        responses: { 200: { description: 'A page of journeys', schema: listEnvelopeSchema(journeySchema) } },
      },
      async ({ query, auth, deps }) => {
        const { rows, total } = await journeys.listJourneys(deps.db, accountOf(auth), query);
        return { body: listEnvelope(rows.map(toJourneyJson), total, query) };
      },
    ),

    ...twinRoutes(
      {
        method: 'post',
        path: '/marketing/journeys',
        operationId: 'createMarketingJourney',
        tags,
        permission: 'marketing.content:create',
        idempotent: true,
        summary: 'Create a customer journey map.',
        description: docs.createMarketingJourneyDescription,
        body: createBody,
        responses: { 201: { description: 'The journey', schema: journeySchema } },
      },
      async ({ body, auth, deps }) => {
        const row = await journeys.createJourney(deps.db, accountOf(auth), body);
        return { status: 201, body: toJourneyJson(row) };
      },
    ),

    ...twinRoutes(
      {
        method: 'get',
        path: '/marketing/journeys/{id}',
        operationId: 'getMarketingJourney',
        tags,
        permission: 'marketing.content:read',
        summary: 'Get a customer journey map with its ordered stages.',
        params: idParams,
        responses: { 200: { description: 'The journey', schema: journeySchema } },
        errors: [notFound],
      },
      async ({ params, auth, deps }) => ({ body: toJourneyJson(await journeys.getJourney(deps.db, accountOf(auth), params.id)) }),
    ),

    ...twinRoutes(
      {
        method: 'patch',
        path: '/marketing/journeys/{id}',
        operationId: 'updateMarketingJourney',
        tags,
        permission: 'marketing.content:update',
        summary: 'Update a customer journey map.',
        description: docs.updateMarketingJourneyDescription,
        params: idParams,
        body: patchBody,
        responses: { 200: { description: 'The journey', schema: journeySchema } },
        errors: [notFound],
      },
      async ({ params, body, auth, deps }) => ({
        body: toJourneyJson(await journeys.updateJourney(deps.db, accountOf(auth), params.id, body)),
      }),
    ),

    ...twinRoutes(
      {
        method: 'delete',
        path: '/marketing/journeys/{id}',
        operationId: 'deleteMarketingJourney',
        tags,
        permission: 'marketing.content:update',
        summary: 'Delete a customer journey map.',
        description: docs.deleteMarketingJourneyDescription,
        params: idParams,
        responses: { 204: { description: 'Deleted' } },
        errors: [notFound],
      },
      async ({ params, auth, deps }) => {
        await journeys.deleteJourney(deps.db, accountOf(auth), params.id);
        return { status: 204 };
      },
    ),
  ];
}
