import { z } from 'zod';
import { accountOf } from '../auth/authenticate';
import { route, type RouteDef } from '../http/route';
import * as activities from './activityService';
import type { ActivityRow } from './activityStore';
import { isoTimestamp, optionalText } from '../http/fields';
import { idParams } from '../http/ids';
import { listEnvelope, listEnvelopeSchema, pageQuery } from '../http/pagination';
import * as docs from './docs';

const tags = ['CRM'];
const auth = { kind: 'session' } as const;

const MAX_METADATA_BYTES = 16_384;

const kind = z
  .string()
  .regex(/^[a-z][a-z0-9_.]{0,63}$/, { error: 'must be a lowercase identifier of up to 64 characters, e.g. note, call, email' });

const createBody = z.strictObject({
  kind: kind.default('note').describe('What happened: `note` (default), `call`, `email`, `meeting`, `order` … A note needs a `body`.'),
  body: optionalText(20_000).optional(),
  externalId: optionalText(255)
    .optional()
    .describe(
      'Your id for this activity, unique per account. Sending one that exists writes nothing and answers 200 with the existing activity.',
    ),
  occurredAt: isoTimestamp().optional().describe('When it happened (ISO 8601 with a zone); defaults to now.'),
  metadata: z
    .record(z.string(), z.unknown())
    .refine((m) => Buffer.byteLength(JSON.stringify(m)) <= MAX_METADATA_BYTES, {
      error: `must serialize to at most ${MAX_METADATA_BYTES} bytes`,
    })
    .optional()
    .describe('A JSON object stored as sent.'),
});

const listQuery = z.strictObject({ kind: kind.optional().describe('Only activities of this kind.'), ...pageQuery });

const activitySchema = z
  .object({
    id: z.string(),
    contactId: z.string(),
    kind: z.string(),
    body: z.string().nullable(),
    externalId: z.string().nullable(),
    occurredAt: z.string(),
    metadata: z.record(z.string(), z.unknown()),
    createdBy: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'Activity' });

const toActivityJson = (a: ActivityRow): z.infer<typeof activitySchema> => ({
  id: a.id,
  contactId: a.contact_id,
  kind: a.kind,
  body: a.body,
  externalId: a.external_id,
  occurredAt: a.occurred_at.toISOString(),
  metadata: a.metadata,
  createdBy: a.created_by,
  createdAt: a.created_at.toISOString(),
});

const notFound = {
  status: 404,
  code: 'contact_not_found',
  description: 'No contact with this id in your account (also for a malformed id).',
};

export function activityRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'get',
        path: '/api/crm/contacts/{id}/activities',
        operationId: 'listCrmContactActivities',
        tags,
        auth,
        summary: "A contact's activity timeline, newest first.",
        description: docs.listCrmContactActivitiesDescription,
        params: idParams,
        query: listQuery,
        responses: { 200: { description: 'A page of activities', schema: listEnvelopeSchema(activitySchema) } },
        errors: [notFound],
      },
      async ({ params, query, auth, deps }) => {
        const { page, limit, kind: k } = query;
        const { rows, total } = await activities.listActivities(deps.db, accountOf(auth), params.id, { kind: k }, { page, limit });
        return { body: listEnvelope(rows.map(toActivityJson), total, { page, limit }) };
      },
    ),

    route(
      {
        method: 'post',
        path: '/api/crm/contacts/{id}/activities',
        operationId: 'addCrmContactActivity',
        tags,
        auth,
        summary: 'Add an activity (a note, a call …) to a contact.',
        description: docs.addCrmContactActivityDescription,
        params: idParams,
        body: createBody,
        responses: {
          201: { description: 'Created', schema: activitySchema },
          200: { description: docs.addCrmContactActivityResponsesR200Description, schema: activitySchema },
        },
        errors: [notFound],
      },
      async ({ params, body, auth, deps }) => {
        const createdBy = auth.kind === 'session' ? auth.userId : null;
        const { activity, created } = await activities.addActivity(deps.db, accountOf(auth), params.id, { ...body, createdBy });
        return { status: created ? 201 : 200, body: toActivityJson(activity) };
      },
    ),
  ];
}
